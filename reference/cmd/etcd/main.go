// Command etcd is the etcd v3.7 server (go.etcd.io/etcd/server/v3/etcdmain, the entry point of
// etcd's own binary) built from this module's graph: the version k8s.io/kubernetes v1.37.2's
// apiserver requires. `go install go.etcd.io/etcd/server/v3@…` fails because etcd's go.mod has
// relative replaces, so the server is built from here. It takes etcd's own flags;
// scripts/reference.sh passes loopback-only URLs.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
