package admin

func (a *Admin) workerRoutes() []Route { return nil }
