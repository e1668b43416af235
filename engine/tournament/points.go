package tournament

import "strconv"

// Points is a score counted in half points: Points(3) is 1½ points.
type Points int

// Float returns p in points.
func (p Points) Float() float64 { return float64(p) / 2 }

// String writes p in points with a ½ sign: "0", "½", "2", "2½", "-1½".
func (p Points) String() string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	whole := strconv.Itoa(int(p / 2))
	if p%2 == 0 {
		return sign + whole
	}
	if p == 1 {
		return sign + "½"
	}
	return sign + whole + "½"
}
