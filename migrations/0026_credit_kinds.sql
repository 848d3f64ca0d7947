-- A customer cannot create value for itself (D-credit-kinds): a credit a
-- customer role issues is a purchase, a prepaid top-up charged on the
-- customer's next invoice; an internal role's is an adjustment, which lowers
-- it. invoice_id is the issued invoice that charged or applied the credit,
-- NULL while it waits for the next one. Credits customers issued before
-- this change become purchases, so what they gave themselves is charged.
ALTER TABLE credits ADD COLUMN kind TEXT NOT NULL DEFAULT 'adjustment' CHECK (kind IN ('purchase', 'adjustment'));
ALTER TABLE credits ADD COLUMN invoice_id TEXT REFERENCES invoices (id) ON DELETE SET NULL;
UPDATE credits SET kind = 'purchase'
    WHERE issued_by IN (SELECT user_id FROM console_users WHERE customer_id IS NOT NULL);
CREATE INDEX credits_open ON credits (customer_id, currency, kind) WHERE invoice_id IS NULL;

-- A plan is offered to customers when it is active and public: a customer
-- role may move its billing setup only to such a plan in its currency; an
-- internal role assigns any plan (private ones too, such as a negotiated
-- price). Plans from before are not offered until the catalog says so.
ALTER TABLE plans ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;
