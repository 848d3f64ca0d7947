package admin

func (a *Admin) userAttributeRoutes() []Route { return nil }
