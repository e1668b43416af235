package drawtest

import (
	"embed"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// fonts are the fallback fonts the tests draw names with (see Fonts and
// the licences beside them).
//
// KulamiTestCJK.otf was made from Debian's fonts-noto-cjk with fontTools:
//
//	from fontTools.ttLib import TTCollection
//	from fontTools import subset
//	f = TTCollection("NotoSansCJK-Regular.ttc").fonts[0]
//	o = subset.Options(); o.name_IDs = o.name_languages = ["*"]
//	o.layout_features = []; o.hinting = False
//	s = subset.Subsetter(o); s.populate(text=<the letters of CJKNames> + "田中一二三"); s.subset(f)
//	# names 1, 3, 4, 6, 16 and the CFF's names set to Kulami Test CJK
//	f.save("KulamiTestCJK.otf")
//
//go:embed fonts/*.ttf fonts/*.otf
var fonts embed.FS

// Fonts writes the fallback fonts of the tests into a temporary folder of
// tb and returns their files, for draw.Config.Fonts: DejaVu Sans (Hebrew,
// Arabic, Georgian, Armenian and more) and Kulami Test CJK, a subset of
// Noto Sans CJK with only the Chinese letters of CJKNames and of "田中一二三".
// With them a test draws names in those scripts the same on every machine,
// whatever fonts it has.
func Fonts(tb testing.TB) []string {
	tb.Helper()
	dir := tb.TempDir()
	var paths []string
	for _, name := range []string{"DejaVuSans.ttf", "KulamiTestCJK.otf"} {
		b, err := fonts.ReadFile("fonts/" + name)
		require.NoError(tb, err)
		p := filepath.Join(dir, name)
		require.NoError(tb, os.WriteFile(p, b, 0o644))
		paths = append(paths, p)
	}
	return paths
}

// Names of 32 characters, the longest Discord shows, in the scripts an
// image must draw: a pair for red and black in each. The Latin ones are of
// wide letters; the CJK ones take a full width each; the Hebrew ones are
// drawn right to left.
var (
	LatinNames  = [2]string{"Maximiliane Großmann-Wüstenhöfer", "Françoise-Éléonore Dupont-Aignan"}
	CJKNames    = [2]string{"王小明李华张伟刘洋陈静杨帆赵磊黄丽周杰吴敏徐强孙燕马超朱琳胡斌郭", "郭斌胡琳朱超马燕孙强徐敏吴杰周丽黄磊赵帆杨静陈洋刘伟张华李明小王"}
	HebrewNames = [2]string{"אברהם בן דוד הכהן מירושלים העתיק", "שרה בת אברהם הכהנת מבית שמש העיר"}
)
