package admin

func (a *Admin) focusRoutes() []Route { return nil }
