package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// boltMagic is the number every bbolt file holds in its first meta page,
// after the page's 16-byte header, in the byte order of the machine that
// wrote it (bbolt writes its pages as they are in memory).
const boltMagic = 0xED0CDAED

// checkBoltFile returns an error wrapping ErrNotKulami if the file at path
// exists, is not empty and does not start as a bbolt file does: text, an
// image, a file of another program. bbolt itself would open such a file
// and fail with what it found ("file size too small 5000", "invalid
// database"), which says nothing of the cause. A missing or empty file
// is fine: Open makes a new database there.
func checkBoltFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return nil // Open will say why it cannot open it
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() || fi.Size() == 0 {
		return nil
	}
	head := make([]byte, 20)
	if _, err := io.ReadFull(f, head); err == nil {
		if binary.LittleEndian.Uint32(head[16:]) == boltMagic || binary.BigEndian.Uint32(head[16:]) == boltMagic {
			return nil
		}
	}
	return fmt.Errorf("%w: it is a file of %d bytes that does not start as a database does", ErrNotKulami, fi.Size())
}
