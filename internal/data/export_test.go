package data

// UploadsRunning is how many upload slots of h are taken (tests).
func UploadsRunning(h *Handler) int { return len(h.uploads) }
