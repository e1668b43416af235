package draw

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/image/font/sfnt"
)

// Config sets up a Renderer.
type Config struct {
	// CacheBytes bounds the memory of the boards a Renderer keeps; zero
	// means DefaultCacheBytes.
	CacheBytes int
	// Fonts are font files (TrueType or OpenType, or a collection of them,
	// whose first font is used) to draw the letters of names that the
	// embedded Go fonts lack, tried in order. Nil means the files of
	// SystemFonts that exist; an empty non-nil slice means none.
	Fonts []string
}

// SystemFonts are the fallback fonts a Renderer looks for when
// Config.Fonts is nil, with the Debian packages that install them:
// fonts-noto-cjk (Chinese, Japanese, Korean) and fonts-dejavu-core
// (Arabic, Hebrew, Armenian, Georgian and more).
var SystemFonts = []string{
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
}

// loadFonts opens the fonts of paths; with must, a file that is missing
// is an error too, else it is skipped. The files stay open: glyphs are
// read from them as they are needed.
func loadFonts(paths []string, must bool) ([]*sfnt.Font, []string, error) {
	var fonts []*sfnt.Font
	var found []string
	var errs []error
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			if must || !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		font, err := parseFont(f)
		if err != nil {
			f.Close()
			errs = append(errs, fmt.Errorf("font %s: %w", p, err))
			continue
		}
		fonts, found = append(fonts, font), append(found, p)
	}
	return fonts, found, errors.Join(errs...)
}

// parseFont reads a font or the first font of a collection.
func parseFont(f *os.File) (*sfnt.Font, error) {
	c, err := sfnt.ParseCollectionReaderAt(f)
	if err != nil {
		return nil, err
	}
	return c.Font(0)
}

// Fonts returns what the Renderer found to draw names the Go fonts
// cannot, as one line to log at start: the fallback font files in use,
// those it looked for and did not find, and any it could not read. A name
// with letters none of its fonts has is shown as its colour.
func (r *Renderer) Fonts() string {
	var missing []string
	for _, p := range r.fontsTried {
		if !slices.Contains(r.fontFiles, p) {
			missing = append(missing, p)
		}
	}
	var parts []string
	if len(r.fontFiles) > 0 {
		parts = append(parts, "draw: fallback fonts for names: "+strings.Join(r.fontFiles, ", "))
	} else {
		parts = append(parts, "draw: no fallback font for names: a name with letters the Go fonts lack (Chinese, Japanese, Korean, Arabic, …) is shown as its colour")
	}
	if len(missing) > 0 {
		parts = append(parts, "not found or unreadable: "+strings.Join(missing, ", "))
	}
	if r.fontErr != nil {
		parts = append(parts, r.fontErr.Error())
	}
	return strings.Join(parts, "; ")
}
