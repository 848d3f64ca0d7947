package admin

func (a *Admin) internalUserRoutes() []Route { return nil }
