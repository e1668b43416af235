package metrics

import (
	"math"
	"strconv"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
)

// Gateway follows the gateway connection of a discordgo Session, for
// /readyz and the metrics. It is safe for concurrent use.
type Gateway struct {
	connected atomic.Bool
	opened    atomic.Bool   // a connection opened once
	latency   atomic.Uint64 // the last heartbeat latency measured, as math.Float64bits of seconds
}

// Gateway registers the figures of s's gateway connection, labelled with
// its shard: kulami_gateway_connected, kulami_gateway_reconnects_total
// (every connection after the first) and
// kulami_gateway_heartbeat_latency_seconds (the time between the last
// heartbeat and its acknowledgement). Call it before the session opens.
func (m *Metrics) Gateway(s *discordgo.Session) *Gateway {
	g := &Gateway{}
	shard := prometheus.Labels{"shard": strconv.Itoa(s.ShardID)}
	reconnects := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "kulami_gateway_reconnects_total", Help: "Connections to the gateway after the first.", ConstLabels: shard,
	})
	m.reg.MustRegister(reconnects,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "kulami_gateway_connected", Help: "1 while the gateway is connected, else 0.", ConstLabels: shard,
		}, func() float64 {
			if g.connected.Load() {
				return 1
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "kulami_gateway_heartbeat_latency_seconds", Help: "Time from the last heartbeat sent to the gateway to its acknowledgement.", ConstLabels: shard,
		}, func() float64 { return g.heartbeat(s) }),
	)
	s.AddHandler(func(*discordgo.Session, *discordgo.Connect) {
		g.connected.Store(true)
		if g.opened.Swap(true) {
			reconnects.Inc()
		}
	})
	s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { g.connected.Store(false) })
	return g
}

// Connected reports whether the gateway is connected.
func (g *Gateway) Connected() bool { return g.connected.Load() }

// heartbeat returns s's heartbeat latency in seconds: the last one
// measured while a heartbeat awaits its acknowledgement.
func (g *Gateway) heartbeat(s *discordgo.Session) float64 {
	// discordgo writes the acknowledgement's time under the session's
	// lock, and takes it after it writes the heartbeat's.
	s.RLock()
	d, sent := s.HeartbeatLatency(), !s.LastHeartbeatSent.IsZero()
	s.RUnlock()
	if d >= 0 && sent {
		g.latency.Store(math.Float64bits(d.Seconds()))
	}
	return math.Float64frombits(g.latency.Load())
}
