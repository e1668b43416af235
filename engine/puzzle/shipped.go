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
func Shipped() ([]Puzzle, error) {
	ps, err := Read(bytes.NewReader(shipped))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ShippedFile, err)
	}
	return ps, nil
}
