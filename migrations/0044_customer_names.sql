-- A customer's name is its own (D-customer-names): unique, case-insensitively,
-- so that pickers, logs and invoices never show two customers alike. Names
-- already taken twice keep the older customer's; each later one is told
-- apart by the start of its id.
UPDATE customers SET name = name || ' (' || SUBSTR(id, 1, 8) || ')'
    WHERE EXISTS (SELECT 1 FROM customers c2 WHERE LOWER(c2.name) = LOWER(customers.name)
        AND (c2.created_at < customers.created_at OR (c2.created_at = customers.created_at AND c2.id < customers.id)));
CREATE UNIQUE INDEX customers_name_unique ON customers (LOWER(name));
