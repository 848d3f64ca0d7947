package graph

import (
	"context"

	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/platform"
)

// The group resolvers' shared calls: the service's group methods take the
// kind of group (a customer's, or internal) and, for members, whether the
// field is about managers.

func groupInput(in model.GroupInput) admin.GroupInput {
	return admin.GroupInput{Name: in.Name, Role: str(in.Role), ExternalID: str(in.ExternalID)}
}

func (r *Resolver) group(ctx context.Context, internal bool, id string) (*admin.Group, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (*admin.Group, error) { return s.Group(ctx, c, internal, id) })
}

func (r *Resolver) updateGroup(ctx context.Context, internal bool, id string, in model.UpdateGroupInput) (*admin.Group, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (*admin.Group, error) {
		return s.UpdateGroup(ctx, c, internal, id, admin.GroupPatch{Name: in.Name, Role: in.Role, ExternalID: in.ExternalID})
	})
}

func (r *Resolver) deleteGroup(ctx context.Context, internal bool, id string) (*bool, error) {
	return ok(ctx, r, func(s *admin.Service, c *access.Caller) error { return s.DeleteGroup(ctx, c, internal, id) })
}

func (r *Resolver) groupMembers(ctx context.Context, internal, managers bool, id string, first *int, after *string) (*model.GroupMemberPage, error) {
	p, err := pageWith(ctx, r, platform.NamePages, first, after, func(s *admin.Service, c *access.Caller, in admin.PageInput) (*admin.Page[*admin.GroupMember], error) {
		return s.GroupMembers(ctx, c, internal, managers, id, in)
	})
	return (*model.GroupMemberPage)(p), err
}

func (r *Resolver) addGroupMember(ctx context.Context, internal, manager bool, groupID, userID string) (*admin.GroupMember, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (*admin.GroupMember, error) {
		return s.AddGroupMember(ctx, c, internal, manager, groupID, userID)
	})
}

func (r *Resolver) removeGroupMember(ctx context.Context, internal, manager bool, groupID, userID string) (*bool, error) {
	return ok(ctx, r, func(s *admin.Service, c *access.Caller) error {
		return s.RemoveGroupMember(ctx, c, internal, manager, groupID, userID)
	})
}
