//go:build unix

package storage

import (
	bolt "go.etcd.io/bbolt"
	"golang.org/x/sys/unix"
)

// release gives back to the system the pages of the file that tx's
// database holds mapped: bbolt maps the whole file, so a read of all of it
// (an export, a migrate) would leave all of it resident, counted in the
// process's memory; the next reads map the pages again from the page
// cache. It runs inside tx, which keeps bbolt from remapping the file
// meanwhile. It is best effort: an error leaves the pages mapped.
func release(tx *bolt.Tx) {
	if n := tx.Size(); n > 0 {
		unix.Syscall(unix.SYS_MADVISE, tx.DB().Info().Data, uintptr(n), unix.MADV_DONTNEED)
	}
}
