package admin

func (a *Admin) customerRoutes() []Route { return nil }
