package admin

func (a *Admin) billingRoutes() []Route { return nil }
