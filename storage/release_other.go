//go:build !unix

package storage

import bolt "go.etcd.io/bbolt"

// release does nothing where the file's pages cannot be given back (see
// release_unix.go).
func release(*bolt.Tx) {}
