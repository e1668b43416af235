package rating

import "math"

// Tau is the Glicko-2 system constant τ: how far the volatility may move in
// one rating period. Glickman suggests 0.3 to 1.2; smaller values keep one
// improbable result from swinging a rating. 0.5, the value of his worked
// example, is on the cautious side: with few games per player, one upset
// should not be read as a change of form.
const Tau = 0.5

const (
	// scale converts the familiar scale to Glicko-2's: μ = (r − 1500)/scale,
	// φ = RD/scale (step 2; 173.7178 ≈ 400/ln 10).
	scale = 173.7178
	// epsilon is the convergence tolerance of the volatility iteration (step 5).
	epsilon = 1e-6
	// maxIterations bounds that iteration. For ratings within 4000 points of
	// each other it converges in at most 16 steps (3 typically); only absurd
	// gaps of tens of thousands of points take longer, and then σ' is taken
	// from the bracket as it stands, so that an update never hangs a request.
	maxIterations = 100
)

// Outcome is the score of one game from a player's point of view.
type Outcome float64

// The outcomes of a game. Glicko-2 would accept any score in [0, 1]; Kulami
// has only these three.
const (
	Loss Outcome = 0
	Draw Outcome = 0.5
	Win  Outcome = 1
)

// Game is one game of a rating period, seen from the player being rated:
// the opponent's rating at the start of the period and the player's outcome.
type Game struct {
	Opponent Rating  `json:"opponent"`
	Outcome  Outcome `json:"outcome"`
}

// Update returns player's rating at the end of a rating period in which it
// played games, following steps 2 to 8 of Glickman's "Example of the Glicko-2
// system". All games count as simultaneous and use the opponents' ratings as
// they were at the start of the period. With no games only the RD grows,
// exactly as Decay(player, 1). The result's RD is clamped to MaxRD.
//
// player and the opponents must be valid (see Rating) and, for the result to
// mean anything, their ratings within a few thousand points of each other.
func Update(player Rating, games []Game) Rating {
	if len(games) == 0 {
		return Decay(player, 1)
	}

	// Step 2: to the Glicko-2 scale.
	mu := (player.Rating - 1500) / scale
	phi := player.RD / scale

	// Steps 3 and 4: info is 1/v, the information the games carry about the
	// player's strength; sum is Σ g(φj)(sj − E), so that Δ = v·sum.
	var info, sum float64
	for _, gm := range games {
		gj := g(gm.Opponent.RD / scale)
		e, variance := expected(gj * (mu - (gm.Opponent.Rating-1500)/scale))
		info += gj * gj * variance
		sum += gj * (float64(gm.Outcome) - e)
	}
	v := 1 / info
	delta := v * sum

	// Step 5: the new volatility.
	sigma := volatility(phi, player.Volatility, v, delta)

	// Steps 6 and 7: widen the RD by the volatility, then narrow it by the
	// information of the games, and move the rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+info)
	mu += phi * phi * sum

	// Step 8: back to the familiar scale.
	return Rating{
		Rating:     1500 + scale*mu,
		RD:         math.Min(scale*phi, MaxRD),
		Volatility: sigma,
	}
}

// Decay returns r after periods rating periods without a game: the rating and
// volatility stay, the RD grows as in step 6 of the paper, once per period,
// RD' = √(RD² + periods·(173.7178·σ)²), clamped to MaxRD. periods may be
// fractional (time since the last game over the length of a period); zero or
// negative periods leave r unchanged.
func Decay(r Rating, periods float64) Rating {
	if periods > 0 {
		growth := scale * r.Volatility
		r.RD = math.Min(math.Sqrt(r.RD*r.RD+periods*growth*growth), MaxRD)
	}
	return r
}

// Rate rates one game between a and b, in which a's outcome was outcome (and
// b's the opposite), and returns both new ratings. The game is a rating
// period of its own for each player, and both updates use the ratings from
// before the game, so Rate(a, b, o) and Rate(b, a, 1-o) agree.
func Rate(a, b Rating, outcome Outcome) (newA, newB Rating) {
	newA = Update(a, []Game{{Opponent: b, Outcome: outcome}})
	newB = Update(b, []Game{{Opponent: a, Outcome: 1 - outcome}})
	return newA, newB
}

// g is the paper's g(φ): how much an opponent's uncertainty φ dampens what a
// game against them says.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected returns the paper's E = 1/(1 + exp(−x)), the expected score, for
// x = g(φj)(μ − μj), and its variance E(1 − E). The variance is computed from
// exp(−|x|) so that it does not cancel to 0 (and v become infinite) when one
// player is thousands of points stronger than the other.
func expected(x float64) (e, variance float64) {
	t := math.Exp(-math.Abs(x))
	p := 1 / (1 + t) // the expected score of the stronger player
	variance = t * p * p
	if x < 0 {
		return t * p, variance
	}
	return p, variance
}

// volatility is step 5: it solves f(x) = 0 for x = ln σ'² with the Illinois
// algorithm, as in the 2013 and 2022 versions of the paper, and returns σ'.
func volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		w := p2 + v + ex
		return ex*(d2-p2-v-ex)/(2*w*w) - (x-a)/(Tau*Tau)
	}

	// Bracket the root between A and B.
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}

	fA, fB := f(A), f(B)
	for i := 0; i < maxIterations && math.Abs(B-A) > epsilon; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		// "≤ 0" as in the 2022 paper: with "< 0" an exact root (fC = 0)
		// would halve fA forever without moving A.
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
