-- Trusting a customer's external identity provider to link existing accounts
-- on the customer's domains (D-linking) is platform_admin's alone; equal to
-- the last row of authz.SpecMatrix().
INSERT INTO role_permissions (role, action, access) VALUES
    ('platform_admin', 'trust_identity_provider', 'full');
