package admin

func (a *Admin) catalogRoutes() []Route { return nil }
