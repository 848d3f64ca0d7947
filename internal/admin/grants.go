package admin

func (a *Admin) grantRoutes() []Route { return nil }
