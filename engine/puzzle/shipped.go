package puzzle

import (
	"bytes"
	_ "embed"
	"fmt"
)

// ShippedFile is the name of the shipped puzzle set, in this package's
// directory; "kulami puzzle generate" rewrites it.
const ShippedFile = "engine/puzzle/shipped.jsonl"

//go:embed shipped.jsonl
var shipped []byte

// Shipped returns the puzzle set built into the program. An error names
// the file and line (*FileError inside).
func Shipped() ([]Puzzle, error) { return readNamed(ShippedFile, shipped) }

// readNamed reads the puzzle file name holding b; an error starts with
// the name and the line.
func readNamed(name string, b []byte) ([]Puzzle, error) {
	ps, err := Read(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ps, nil
}
