package authz

// CanSeeBilledAmounts reports whether p's role holds view_billed_units, which
// billed amounts of usage rows need (R5.7-redact). Scope has already decided
// which rows p sees.
func (c *Catalog) CanSeeBilledAmounts(p *Principal) bool {
	return p != nil && c.AccessOf(p, ViewBilledUnits) != AccessNone
}

// RedactBilled returns amount when p may see billed amounts and nil otherwise,
// so the field is null in REST and GraphQL alike (R5.7-redact).
func (c *Catalog) RedactBilled(p *Principal, amount *float64) *float64 {
	return Redact(c, p, ViewBilledUnits, amount)
}

// Redact returns v when p's role holds action a (read or full) and nil
// otherwise: field-level redaction for any nullable field.
func Redact[T any](c *Catalog, p *Principal, a Action, v *T) *T {
	if p == nil || c.AccessOf(p, a) == AccessNone {
		return nil
	}
	return v
}
