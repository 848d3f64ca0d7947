package admin

func (a *Admin) customerConfigRoutes() []Route { return nil }
