-- One password rule for every organization (D-org-policy): a minimum of
-- at least the platform's 12 characters and the list of common and breached
-- passwords on. The provider's management API let a policy go down to 8 and
-- turn the list off; such policies are raised to the rule.
UPDATE login_policies SET password_min_length = 12 WHERE password_min_length < 12;
UPDATE login_policies SET password_check_common = TRUE WHERE password_check_common = FALSE;
