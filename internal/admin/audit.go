package admin

func (a *Admin) auditRoutes() []Route { return nil }
