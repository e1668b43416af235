// Package storagetest is the conformance suite of kulami's storage: the
// tests that every backend (storage's bbolt Store, storage/postgres) must
// pass, written once against Store, the contract they share.
//
// A backend's test runs it with a function that opens a new, empty store:
//
//	func TestSuite(t *testing.T) {
//		storagetest.Run(t, func(tb testing.TB, opt storage.Options) storagetest.Store {
//			return mustOpen(tb, opt)
//		})
//	}
//
// Fill stores one record of every kind, for tests that copy stores
// (storage.Compare, kulamibot migrate); BenchmarkCommitMove measures a
// backend's durable commit of a move.
package storagetest
