package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// customIDPrefix starts every custom ID the bot puts on a component.
const customIDPrefix = "kulami"

// The actions a component can carry.
const (
	actMove        = "move"             // select a hole on a board
	actResign      = "resign"           // the Resign button of a board
	actResignYes   = "resign-yes"       // confirm resigning
	actResignNo    = "resign-no"        // keep playing
	actAccept      = "accept"           // accept a challenge
	actDecline     = "decline"          // decline a challenge
	actCancel      = "cancel"           // the challenger withdraws a challenge
	actRules       = "rules"            // page through the rules
	actLeaders     = "leaderboard"      // page through the leaderboard
	actLeadersNext = "leaderboard-next" // the page after a mark of the leaderboard
	actLeadersPrev = "leaderboard-prev" // the page before a mark of the leaderboard
	actDrawAccept  = "draw-yes"         // accept a draw offer
	actDrawReject  = "draw-no"          // decline a draw offer
	actRematch     = "rematch"          // ask for a rematch of a finished game
	actReviewStep  = "review-step"      // step through a reviewed game
	actReplayGIF   = "replay-gif"       // the animated replay of a finished game
	actGiveTime    = "give-time"        // give the opponent more time
	actClaim       = "claim"            // claim the win when the opponent's clock ran out
	actWait        = "claim-wait"       // keep waiting instead
	actClaimDM     = "claim-dm"         // claim the win from the claim's DM (a game where the bot cannot post)
	actWaitDM      = "claim-wait-dm"    // keep waiting, from the claim's DM
	actPlan        = "plan"             // open the planner of conditional moves
	actPlanPick    = "plan-pick"        // pick a move of a planned line
	actPlanClear   = "plan-clear"       // clear one's plan
	actTJoin       = "t-join"           // join a tournament (its announcement)
	actTLeave      = "t-leave"          // leave a tournament (its announcement)
	actTWithdraw   = "t-withdraw"       // confirm a withdrawal from a tournament
	actTStay       = "t-stay"           // keep playing in a tournament
	actRefresh     = "refresh"          // show an answer-only game as it is now
)

// customID is the self-describing ID of a component:
// kulami:<action>:<channel>:<id>:<n>[:<part>]. The channel and the ID of
// the game (or challenge) let a click on a message from before a restart
// find its game; n is the ply a board showed, or a page number; part tells
// apart components of one message that do the same (the hole menus of a
// first move).
type customID struct {
	action  string
	channel string
	id      uint64
	n       int
	part    int
}

func (c customID) String() string {
	s := fmt.Sprintf("%s:%s:%s:%d:%d", customIDPrefix, c.action, c.channel, c.id, c.n)
	if c.part > 0 {
		s += ":" + strconv.Itoa(c.part)
	}
	return s
}

var errCustomID = errors.New("not a kulami custom ID")

// parseCustomID reads a custom ID written by customID.String.
func parseCustomID(s string) (customID, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 5 || len(parts) > 6 || parts[0] != customIDPrefix || parts[1] == "" {
		return customID{}, fmt.Errorf("%w: %q", errCustomID, s)
	}
	id, err1 := strconv.ParseUint(parts[3], 10, 64)
	n, err2 := strconv.Atoi(parts[4])
	part, err3 := 0, error(nil)
	if len(parts) == 6 {
		part, err3 = strconv.Atoi(parts[5])
	}
	if err1 != nil || err2 != nil || err3 != nil || n < 0 || part < 0 {
		return customID{}, fmt.Errorf("%w: %q", errCustomID, s)
	}
	return customID{action: parts[1], channel: parts[2], id: id, n: n, part: part}, nil
}
