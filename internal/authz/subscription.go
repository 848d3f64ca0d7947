package authz

// Subscription is a user's notification subscription to one kind of event
// (planned for worker-failure notifications). It grants no permission
// (R6-subscription): Decide never reads it.
type Subscription struct {
	UserID    string
	EventType string
}
