package admin

func (a *Admin) discrepancyRoutes() []Route { return nil }
