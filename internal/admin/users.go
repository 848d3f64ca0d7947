package admin

func (a *Admin) userRoutes() []Route { return nil }
