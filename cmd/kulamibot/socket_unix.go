//go:build unix

package main

import (
	"net"
	"syscall"
)

// listenOwnerOnly listens on a Unix socket at path that only its owner can connect to from the moment
// it exists: the socket is created under umask 077, where a chmod after net.Listen would leave a
// moment in which anyone could connect. The umask is the process's, so for that moment the files and
// directories other goroutines create are owner-only too, which is harmless.
func listenOwnerOnly(path string) (net.Listener, error) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}
