// Package adminhttp serves the console's administration API under /api/v1 (R9-prefix, R4.6-id-scope): the
// route table with the decision in front of every route, request decoding and paging; each handler calls one
// admin.Service method.
package adminhttp

//go:generate go run github.com/vektra/mockery/v2 --name Apps --srcpkg github.com/platform/platform/internal/admin --output . --outpkg adminhttp --structname MockApps --filename mock_apps_test.go --testonly --with-expecter=false --disable-version-string
