//go:build !unix

package main

import "net"

// listenOwnerOnly listens on a Unix socket at path. Without a umask (Windows), who may connect is
// what the directory's access control list says.
func listenOwnerOnly(path string) (net.Listener, error) {
	return net.Listen("unix", path)
}
