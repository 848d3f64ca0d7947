package admin

func (a *Admin) subscriptionRoutes() []Route { return nil }
