package admin

func (a *Admin) instanceRoutes() []Route { return nil }
