package admin

func (a *Admin) tenantRoutes() []Route { return nil }
