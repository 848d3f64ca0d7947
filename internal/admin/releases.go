package admin

func (a *Admin) releaseRoutes() []Route { return nil }
