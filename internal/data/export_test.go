package data

// UploadsRunning is how many upload slots of h are taken (tests).
func UploadsRunning(h *Handler) int { return len(h.uploads) }

// SetMaxTenants lowers MaxMyTenants for s (tests).
func SetMaxTenants(s *Service, n int) { s.maxTenants = n }
