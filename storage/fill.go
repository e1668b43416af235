package storage

import bolt "go.etcd.io/bbolt"

// appendFill is the bolt.Bucket.FillPercent of the buckets whose writes
// append at the end of a key range: the finished games (guild ‖ game ID,
// and IDs only grow) and the histories (guild ‖ player ‖ end time ‖ game
// ID: a player's next game ends after their last).
//
// bbolt splits a page that outgrows its size where the first part reaches
// FillPercent of a page, 0.5 by default, and a part left behind is filled
// again only by keys that sort into it. Keys that come after the last of a
// range never do, so at 0.5 such a bucket stays half full for good. At
// 0.9, a file of BenchmarkYear (200,000 finished games, built by Import
// in batches as kulamibot migrate builds one) has its histories 84% full
// instead of 44% and its finished games 73% instead of 49% (three of
// about 1 KB a page instead of two), and is 36% smaller. Games that end
// one a commit, as the bot ends them, leave histories about 65–80% full
// instead of 45–50%; their finished games gain nothing (two whole games,
// about 3.6 KB each, fill a page and its overflow page to 90% at any
// fill, and bbolt keeps two short ones a page when they come one at a
// time).
//
// Why not higher: a key that sorts into the middle of a full page (the
// end of a player's history that shares a page with the next player's)
// splits it again at once, and the higher the fill, the fewer keys the
// part left behind takes before that. Histories of many players with a
// page or less each fill worse at 0.9 than at 0.5 (about 59% against
// 67%), while those of players with more games than a page holds, whose
// ranges are appends, gain the most. 1 gains a few points more, in
// batches only, and leaves little room for a value rewritten longer
// in place (SetFinalBoard notes a message in a finished game, PutHistory
// replaces an entry). The indexes (last_finished, head_to_head) keep
// bbolt's default: their keys (a channel, a pair of players) come in any
// order, where a high fill leaves pages far emptier than 0.5 does.
//
// bbolt never repacks pages: a file keeps the layout it was written with,
// and only kulamibot migrate into a new bbolt file gives all of it the
// denser one.
const appendFill = 0.9

// appendBucket returns the bucket name of the write transaction tx, set to
// split its pages at appendFill: for the buckets whose keys append (see
// appendFill). The setting lasts for tx, whose later Bucket calls return
// the same handle.
func appendBucket(tx *bolt.Tx, name []byte) *bolt.Bucket {
	b := tx.Bucket(name)
	b.FillPercent = appendFill
	return b
}
