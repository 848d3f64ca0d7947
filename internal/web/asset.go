package web

import (
	"net/http"
	"path"
)

// ServeAsset answers the script or style sheet name of a role's folder dir
// (console, tenant), revalidated on every use; any other name is 404.
func ServeAsset(w http.ResponseWriter, r *http.Request, dir, name string) {
	name = path.Base(name)
	switch path.Ext(name) {
	case ".js", ".css":
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, FS, dir+"/"+name)
}
