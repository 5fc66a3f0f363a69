// Command service serves haulplan's HTTP interface: access tokens, route and
// load plan jobs (run on River, with the best plan so far while they run),
// the dispatch summary and report of a plan, and booked deliveries with
// their update rules. It is what an operator deploys and the template an
// embedding team copies; planning and the delivery rules live in the
// library (engine, engine/report, delivery), never here.
//
//	go run ./examples/service -addr 127.0.0.1:8080 -db haulplan.db        # one process, one SQLite file
//	go run ./examples/service -db haulplan.db tenant create NAME          # prints the tenant's credentials once
//	go run ./examples/service -db haulplan.db tenant rotate-secret NAME   # a new secret; the old one stops working
//	go run ./examples/service -db haulplan.db tenant revoke-tokens NAME   # every token issued so far stops working
//	HAULPLAN_POSTGRES_URL=URL go run ./examples/service -addr :8080       # N processes on one PostgreSQL database
//
// Flags come before the command. Without a command the service serves
// until SIGTERM or SIGINT, then stops accepting, finishes the requests
// under way, and hands running planning jobs back to the queue, so that
// this or another process runs them again.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/api"
	"github.com/haulplan/haulplan/examples/service/internal/jobs"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

type config struct {
	addr          string
	db            string
	postgres      string
	ratePerMinute int
	// deliveryRatePerMinute limits the delivery operations; 0: no limit.
	deliveryRatePerMinute int
	tokenLifetime         time.Duration
	maxBody               byteSize
	jobs                  int
	maxTimeLimit          time.Duration
	jobGrace              time.Duration
	maxStreams            int
	tenantQueuedJobs      int
	tenantRunningJobs     int
	jobLease              time.Duration
	maxAttempts           int
	shutdown              time.Duration
	logLevel              string

	// authFailuresPerMinute limits failed authentications per client id
	// and per client address; 0: no limit.
	authFailuresPerMinute int
	// trustedProxies is the -trusted-proxies list as given, proxies its
	// parsed prefixes.
	trustedProxies string
	proxies        []netip.Prefix
	writeTimeout   time.Duration

	// jobRetention and deliveryRetention are how long finished jobs and
	// closed deliveries are kept (0: forever); storageQuota bounds what
	// a tenant stores (0: no quota).
	jobRetention      time.Duration
	deliveryRetention time.Duration
	storageQuota      byteSize
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func usage(fs *flag.FlagSet, w io.Writer) func() {
	return func() {
		fmt.Fprintf(w, `usage: service [flags]                            serve the HTTP interface
       service [flags] tenant create NAME          create a tenant; prints {"consumerId","clientId","clientSecret"}
       service [flags] tenant rotate-secret TENANT a new client secret, printed as by create; the old one
                                                   stops working at once (tokens it got stay valid: revoke them)
       service [flags] tenant revoke-tokens TENANT every token issued to the tenant so far stops working,
                                                   within 5 s in every process; prints {"consumerId","revokedTokens"}
TENANT is a tenant's consumer id or its name (a name only it has).

Storage is one SQLite file (-db) for a single process, or one PostgreSQL
database (-postgres, or the environment's HAULPLAN_POSTGRES_URL) shared by
any number of processes on any number of machines: each of them serves
every operation for every job. Keep the database's password out of the
command line, where every user of the machine sees it (ps): leave it out
of the URL and set PGPASSWORD, or a passfile (~/.pgpass, or the file
PGPASSFILE names), or give the whole URL in HAULPLAN_POSTGRES_URL.

Rate limits count per tenant and per operation. The planning operations
(POST /v1/routes, job details, its cancel, dispatch summary and report) and
the token take -rate-per-minute, the interface document's 10 a minute; the
delivery operations (book, get, update, cancel, status) take
-delivery-rate-per-minute. Over a limit: 429 with Retry-After. The served
/openapi.json states the limits and the body size in force. Failed
authentications (a wrong client secret, an unknown or expired token) are
limited per client id and per client address, in each process
(-auth-failures-per-minute); behind a proxy, name it in -trusted-proxies so
that the client's address is read from X-Forwarded-For.

Planning jobs: a tenant may have -tenant-queued-jobs waiting (one more:
429) and -tenant-running-jobs running, across every process; the tenants'
jobs start in turn. A job searches for its options.timeLimit, at most
-max-time-limit, with at most -max-streams streams, and is stopped at its
time limit plus -job-grace.

Storage: a finished job (its request and plan) is removed -job-retention
after its end, a closed delivery (DELIVERED, RETURNED, CANCELLED) with its
history -delivery-retention after its last change (0: keep forever), by
an hourly job on the queue that one of the processes runs; an
Idempotency-Key is kept as long as what its request created. A tenant may store -tenant-storage-quota
of job requests, plans, delivery bodies and history; a request that would
pass it: 507. A new SQLite file and its -wal and -shm are private (0600).

Go's garbage collector runs at GOGC=400 with a soft memory limit of three
quarters of the machine's (or cgroup's) memory unless GOGC or GOMEMLIMIT
is set in the environment.

flags:
`)
		fs.PrintDefaults()
	}
}

// flagSet defines the service's flags, each setting its field of c, and
// its usage.
func (c *config) flagSet(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("service", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&c.db, "db", "haulplan.db", "SQLite database file (created when missing; WAL files beside it)")
	fs.StringVar(&c.postgres, "postgres", "", "PostgreSQL URL (postgres://user@host:5432/db; the password from PGPASSWORD or a passfile; default $"+postgresURLEnv+"); replaces -db for storage, the job queue and the rate limits, shared by every process that uses it")
	fs.IntVar(&c.ratePerMinute, "rate-per-minute", api.DefaultRatePerMinute, "requests a minute per tenant and per planning operation (and the token)")
	fs.IntVar(&c.deliveryRatePerMinute, "delivery-rate-per-minute", api.DefaultDeliveryRatePerMinute, "requests a minute per tenant and per delivery operation; 0: no limit")
	fs.DurationVar(&c.tokenLifetime, "token-lifetime", api.DefaultTokenLifetime, "lifetime of an access token")
	fs.IntVar(&c.authFailuresPerMinute, "auth-failures-per-minute", api.DefaultAuthFailuresPerMinute, "failed authentications a minute per client id and per client address, in each process, before 429; 0: no limit")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", "", "comma-separated addresses or CIDR prefixes of the proxies in front of the service; a request from one is counted against the address X-Forwarded-For names")
	fs.DurationVar(&c.writeTimeout, "write-timeout", defaultWriteTimeout, "longest time to read a request's body and send its answer (the HTML report of a 5,000-store plan is about 46 MB)")
	c.maxBody = api.DefaultMaxBodyBytes
	fs.Var(&c.maxBody, "max-body", "largest request body, a `size` in bytes or with a unit (512KiB, 32MiB); larger: 413 (a day of 5,000 stores and 60,000 pallets is about 12 MB; a road matrix adds about 15 bytes a leg, 384 MB for 5,000 stores: 512MiB takes it; delivery bodies are at most 1 MiB whatever this says)")
	fs.DurationVar(&c.jobRetention, "job-retention", defaultJobRetention, "how long a finished job (COMPLETED, FAILED, CANCELLED), its request and plan are kept after its end; 0: forever")
	fs.DurationVar(&c.deliveryRetention, "delivery-retention", defaultDeliveryRetention, "how long a closed delivery (DELIVERED, RETURNED, CANCELLED) and its history are kept after its last change; 0: forever")
	c.storageQuota = defaultStorageQuota
	fs.Var(&c.storageQuota, "tenant-storage-quota", "the `size` of job requests, plans, delivery bodies and history one tenant may store (bytes, or with a unit: 500MiB, 4GiB); a request that would pass it: 507; 0: no quota")
	fs.IntVar(&c.jobs, "jobs", jobs.DefaultMaxJobs, "planning jobs this process runs at once (each gets an equal share of the cores)")
	fs.DurationVar(&c.maxTimeLimit, "max-time-limit", jobs.DefaultMaxTimeLimit, "longest search a job may ask for (options.timeLimit); longer requests are capped")
	fs.DurationVar(&c.jobGrace, "job-grace", jobs.DefaultGrace, "how long past its time limit a job may run: its search is stopped then and the plan it has kept (none: FAILED); a search that has not stopped one more grace later is FAILED")
	fs.IntVar(&c.maxStreams, "max-streams", engine.DefaultStreams, "most search streams a request may ask for (options.streams); more: 400")
	fs.IntVar(&c.tenantQueuedJobs, "tenant-queued-jobs", api.DefaultTenantQueuedJobs, "planning jobs a tenant may have waiting in the queue; one more: 429")
	fs.IntVar(&c.tenantRunningJobs, "tenant-running-jobs", jobs.DefaultTenantRunningJobs, "planning jobs of one tenant that run at once, across every process; the tenants' jobs start in turn")
	fs.DurationVar(&c.jobLease, "job-lease", jobs.DefaultLease, "a running job's lease, renewed by its process; a job whose lease ran out (its process died) is run again or failed")
	fs.IntVar(&c.maxAttempts, "job-attempts", jobs.DefaultMaxAttempts, "runs a job gets before it is FAILED when its process keeps dying")
	fs.DurationVar(&c.shutdown, "shutdown-timeout", 30*time.Second, "on SIGTERM, how long requests under way may take to finish")
	fs.StringVar(&c.logLevel, "log-level", "info", "debug, info, warn or error (JSON lines on stderr)")
	fs.Usage = usage(fs, stderr)
	return fs
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c config
	fs := c.flagSet(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var level slog.Level
	errs := c.check(&level)
	if c.trustedProxies != "" {
		var err error
		if c.proxies, err = parseProxies(c.trustedProxies); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, "service:", e)
		}
		return 2
	}
	log := newLogger(stderr, level)
	if c.postgres != "" && urlHasPassword(c.postgres) {
		// A warning, not a refusal: a deployment that passes it so keeps
		// running after an upgrade, and the line says what to change.
		log.Warn("the -postgres URL holds a password, which every user of this machine can read (ps, /proc): leave it out and set PGPASSWORD or a passfile (~/.pgpass, PGPASSFILE), or give the URL in " + postgresURLEnv)
	}
	if c.postgres == "" {
		c.postgres = os.Getenv(postgresURLEnv)
	}

	rest := fs.Args()
	switch {
	case len(rest) == 0 || len(rest) == 1 && rest[0] == "serve":
		if err := serve(ctx, c, log); err != nil {
			log.Error("service stopped", "err", err)
			return 1
		}
		return 0
	case len(rest) == 3 && rest[0] == "tenant":
		command, ok := tenantCommands[rest[1]]
		if !ok {
			break
		}
		if err := withStore(ctx, c, log, func(st store.Store) error { return command(ctx, st, rest[2], stdout) }); err != nil {
			fmt.Fprintf(stderr, "service: tenant %s: %v\n", rest[1], err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "service: unknown command %q\n", rest)
	fs.Usage()
	return 2
}

// newLogger writes JSON lines of level and above to w, each duration as a
// Go duration string ("1.234s", "850µs") that a person reads at a glance,
// not slog's integer of nanoseconds.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: durationText}))
}

func durationText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}

// check lists every flag whose value the service cannot run with, and
// reads the log level into level.
func (c config) check(level *slog.Level) []string {
	var errs []string
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		errs = append(errs, fmt.Sprintf("-log-level %q: want debug, info, warn or error", c.logLevel))
	}
	if c.ratePerMinute < 1 {
		errs = append(errs, fmt.Sprintf("-rate-per-minute %d: want at least 1", c.ratePerMinute))
	}
	if c.deliveryRatePerMinute < 0 {
		errs = append(errs, fmt.Sprintf("-delivery-rate-per-minute %d: want at least 0 (0: no limit)", c.deliveryRatePerMinute))
	}
	if c.tokenLifetime < time.Second {
		errs = append(errs, fmt.Sprintf("-token-lifetime %v: want at least 1s", c.tokenLifetime))
	}
	if c.maxBody < 1024 {
		errs = append(errs, fmt.Sprintf("-max-body %v: want at least 1KiB", c.maxBody))
	}
	if c.jobs < 1 {
		errs = append(errs, fmt.Sprintf("-jobs %d: want at least 1", c.jobs))
	}
	if c.maxTimeLimit < time.Second {
		errs = append(errs, fmt.Sprintf("-max-time-limit %v: want at least 1s", c.maxTimeLimit))
	}
	if c.jobGrace < time.Second {
		errs = append(errs, fmt.Sprintf("-job-grace %v: want at least 1s", c.jobGrace))
	}
	if c.maxStreams < 1 {
		errs = append(errs, fmt.Sprintf("-max-streams %d: want at least 1", c.maxStreams))
	}
	if c.tenantQueuedJobs < 1 {
		errs = append(errs, fmt.Sprintf("-tenant-queued-jobs %d: want at least 1", c.tenantQueuedJobs))
	}
	if c.tenantRunningJobs < 1 {
		errs = append(errs, fmt.Sprintf("-tenant-running-jobs %d: want at least 1", c.tenantRunningJobs))
	}
	if c.jobLease < time.Second {
		errs = append(errs, fmt.Sprintf("-job-lease %v: want at least 1s", c.jobLease))
	}
	if c.maxAttempts < 1 {
		errs = append(errs, fmt.Sprintf("-job-attempts %d: want at least 1", c.maxAttempts))
	}
	if c.shutdown <= 0 {
		errs = append(errs, fmt.Sprintf("-shutdown-timeout %v: want more than 0", c.shutdown))
	}
	if c.authFailuresPerMinute < 0 {
		errs = append(errs, fmt.Sprintf("-auth-failures-per-minute %d: want at least 0 (0: no limit)", c.authFailuresPerMinute))
	}
	if c.writeTimeout < time.Second {
		errs = append(errs, fmt.Sprintf("-write-timeout %v: want at least 1s", c.writeTimeout))
	}
	if c.jobRetention != 0 && c.jobRetention < time.Hour {
		errs = append(errs, fmt.Sprintf("-job-retention %v: want 0 (forever) or at least 1h", c.jobRetention))
	}
	if c.deliveryRetention != 0 && c.deliveryRetention < time.Hour {
		errs = append(errs, fmt.Sprintf("-delivery-retention %v: want 0 (forever) or at least 1h", c.deliveryRetention))
	}
	return errs
}

// postgresURLEnv names the environment variable that gives the PostgreSQL
// URL when -postgres is not set: the environment of a process is readable
// by its user and root only, its command line by every user.
const postgresURLEnv = "HAULPLAN_POSTGRES_URL"

// urlHasPassword reports whether a PostgreSQL connection string (a URL or
// key=value pairs, as pgx reads them) carries a password.
func urlHasPassword(conn string) bool {
	if strings.HasPrefix(conn, "postgres://") || strings.HasPrefix(conn, "postgresql://") {
		u, err := url.Parse(conn)
		if err != nil {
			return strings.Contains(conn, "@") // unreadable: assume the worst
		}
		_, has := u.User.Password()
		return has || u.Query().Has("password")
	}
	for f := range strings.FieldsSeq(conn) {
		if k, _, ok := strings.Cut(f, "="); ok && strings.TrimSpace(k) == "password" {
			return true
		}
	}
	return false
}

// parseProxies reads -trusted-proxies: comma-separated addresses and CIDR
// prefixes. The error lists every entry that is neither.
func parseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	var bad []string
	for f := range strings.SplitSeq(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(f); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		bad = append(bad, strconv.Quote(f))
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("-trusted-proxies: %s: want IP addresses or CIDR prefixes (10.0.0.0/8, 2001:db8::1)", strings.Join(bad, ", "))
	}
	return out, nil
}

// serverGCPercent is the garbage collector's target when GOGC is not set:
// a request allocates a few kilobytes and keeps none of them, so with Go's
// default of 100 the collector runs every few hundred requests of a small
// heap. At 400 it runs a quarter as often; on this project's 2-core machine
// GET job details went from 5,000 to 7,000 requests/s at 8 clients and
// delivery updates from 4,100/s (p99 28 ms) to 4,800/s (p99 17 ms) at 32.
const serverGCPercent = 400

// tuneGC sets the collector's target to serverGCPercent and, because a
// planning job's heap may then grow to five times its live data, a soft
// memory limit of three quarters of the memory the process may use, unless
// the operator set GOGC or GOMEMLIMIT (Go's own variables, which win).
func tuneGC(log *slog.Logger) {
	gogc, limit := os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT")
	if gogc == "" {
		debug.SetGCPercent(serverGCPercent)
		gogc = strconv.Itoa(serverGCPercent)
	}
	if limit == "" {
		if total := availableMemory(); total > 0 {
			debug.SetMemoryLimit(total / 4 * 3)
			limit = strconv.FormatInt(total/4*3>>20, 10) + "MiB"
		}
	}
	log.Info("garbage collector", "gogc", gogc, "memory_limit", limit)
}

// availableMemory is the memory this process may use in bytes: the
// machine's (MemTotal of /proc/meminfo), or its cgroup's limit when lower;
// 0 where neither can be read.
func availableMemory() int64 {
	var total int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					total = kb * 1024
				}
			}
		}
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && limit > 0 && (total == 0 || limit < total) {
			total = limit
		}
	}
	return total
}

// The storage defaults. A job of a 5,000-store day stores about 19 MB
// (bench/dcday, seed 1: an 8.5 MB request and a 10.5 MB plan), a booking
// about 4 KB (its body kept and in the history). A month of jobs keeps a
// planner's re-plans of last month in reach; three months of closed
// deliveries cover a quarter's claims and returns. 4 GiB holds a tenant
// that plans a 5,000-store day four times a day for the month (2.3 GB)
// and closes 1,000 deliveries a day for the quarter (0.4 GB), with room.
const (
	defaultJobRetention      = 30 * 24 * time.Hour
	defaultDeliveryRetention = 90 * 24 * time.Hour
	defaultStorageQuota      = 4 << 30
)

// retention is the store's retention from the flags.
func (c config) retention() store.Retention {
	return store.Retention{Jobs: c.jobRetention, Deliveries: c.deliveryRetention}
}

func open(ctx context.Context, c config, log *slog.Logger) (store.Store, error) {
	cfg := store.Config{Logger: log, Retention: c.retention()}
	if c.postgres != "" {
		return store.OpenPostgres(ctx, c.postgres, cfg)
	}
	return store.OpenSQLite(ctx, c.db, cfg)
}

// withStore runs f on the store of c, closed afterwards.
func withStore(ctx context.Context, c config, log *slog.Logger, f func(store.Store) error) error {
	st, err := open(ctx, c, log)
	if err != nil {
		return err
	}
	defer st.Close()
	return f(st)
}

// tenantCommands are the "tenant" commands: each takes its argument (a
// name, or a tenant's consumer id or name) and prints one JSON object.
var tenantCommands = map[string]func(ctx context.Context, st store.Store, arg string, stdout io.Writer) error{
	"create": func(ctx context.Context, st store.Store, name string, stdout io.Writer) error {
		consumer, client, secret, err := api.CreateTenant(ctx, st, name)
		if err != nil {
			return err
		}
		return printCredentials(stdout, consumer, client, secret)
	},
	"rotate-secret": func(ctx context.Context, st store.Store, tenant string, stdout io.Writer) error {
		consumer, client, secret, err := api.RotateSecret(ctx, st, tenant)
		if err != nil {
			return err
		}
		return printCredentials(stdout, consumer, client, secret)
	},
	"revoke-tokens": func(ctx context.Context, st store.Store, tenant string, stdout io.Writer) error {
		consumer, n, err := api.RevokeTokens(ctx, st, tenant)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(struct {
			ConsumerID    string `json:"consumerId"`
			RevokedTokens int    `json:"revokedTokens"`
		}{consumer, n})
	},
}

// printCredentials prints a tenant's client credentials, the only copy of
// the secret.
func printCredentials(stdout io.Writer, consumer, client, secret string) error {
	return json.NewEncoder(stdout).Encode(map[string]string{
		"consumerId": consumer, "clientId": client, "clientSecret": secret,
	})
}

// apiConfig is the HTTP handler's configuration from the flags. One
// process keeps its rate limits in memory; processes sharing a PostgreSQL
// database share them through it.
func apiConfig(c config, st store.Store, runner api.Canceller, log *slog.Logger) api.Config {
	cfg := api.Config{
		Store:                 st,
		Canceller:             runner,
		Logger:                log,
		RatePerMinute:         c.ratePerMinute,
		DeliveryRatePerMinute: c.deliveryRatePerMinute,
		TokenLifetime:         c.tokenLifetime,
		AuthFailuresPerMinute: c.authFailuresPerMinute,
		TrustedProxies:        c.proxies,
		MaxBodyBytes:          int64(c.maxBody),
		TenantStorageQuota:    int64(c.storageQuota),
		Retention:             c.retention(),
		MaxStreams:            c.maxStreams,
		TenantQueuedJobs:      c.tenantQueuedJobs,
		TenantRunningJobs:     c.tenantRunningJobs,
	}
	if c.authFailuresPerMinute == 0 {
		cfg.AuthFailuresPerMinute = api.NoRateLimit
	}
	if c.deliveryRatePerMinute == 0 {
		cfg.DeliveryRatePerMinute = api.NoRateLimit
	}
	if c.postgres != "" {
		cfg.RateLimiter = api.NewStoreRateLimiter(st, c.ratePerMinute)
		if c.deliveryRatePerMinute > 0 {
			cfg.DeliveryRateLimiter = api.NewStoreRateLimiter(st, c.deliveryRatePerMinute)
		}
	}
	return cfg
}

// maxHeaderBytes bounds a request's line and headers: a token, the
// consumer id and a few ordinary headers take about a kilobyte, and a
// longer line or header set is refused with 431 before the handler sees
// it (net/http's default is a megabyte).
const maxHeaderBytes = 64 << 10

// defaultWriteTimeout bounds the time from the end of a request's headers
// to the end of its answer: its body (at most a minute, ReadTimeout), the
// handler, and sending the answer. The largest answers are the files of a
// plan, rendered in memory before a byte is sent: for a 5,000-store day
// (bench/dcday, seed 1, 2,166 routes) the HTML report is 45.6 MB, rendered
// in 22 s, and the dispatch summary 5.2 MB, rendered in 10 s, on this
// project's 2-core machine under a load of 7. Five minutes leaves the HTML
// report about 4 minutes to travel, 1.5 Mbit/s or more; a slower reader
// of it is cut off, and no connection is held longer than that.
const defaultWriteTimeout = 5 * time.Minute

// newHTTPServer is the service's HTTP server: the handler behind limits
// on headers (size, and 10 s to send them), on the body (a minute), on the
// whole answer (writeTimeout) and on idle connections.
func newHTTPServer(handler http.Handler, writeTimeout time.Duration, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           handler,
		MaxHeaderBytes:    maxHeaderBytes,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

func serve(ctx context.Context, c config, log *slog.Logger) error {
	// From here on SIGTERM and SIGINT stop the service cleanly, even
	// while it is still starting.
	sig, stopSignals := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	defer stopSignals()
	tuneGC(log)
	st, err := open(ctx, c, log)
	if err != nil {
		return err
	}
	defer st.Close()

	runner, err := jobs.NewRunner(st, jobs.Config{
		MaxJobs:           c.jobs,
		MaxTimeLimit:      c.maxTimeLimit,
		Grace:             c.jobGrace,
		MaxStreams:        c.maxStreams,
		TenantRunningJobs: c.tenantRunningJobs,
		Lease:             c.jobLease,
		RenewEvery:        c.jobLease / 6,
		RecoverEvery:      c.jobLease / 3,
		MaxAttempts:       c.maxAttempts,
		Logger:            log,
	})
	if err != nil {
		return err
	}
	if err := runner.Start(ctx); err != nil {
		return err
	}

	handler := api.New(apiConfig(c, st, runner, log))
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		runner.Stop(context.Background())
		return err
	}
	srv := newHTTPServer(handler, c.writeTimeout, log)
	backend := "sqlite:" + c.db
	if c.postgres != "" {
		backend = "postgres"
	}
	log.Info("listening", "addr", ln.Addr().String(), "store", backend, "jobs", c.jobs)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		runner.Stop(context.Background())
		return err
	case <-sig.Done():
	}
	log.Info("shutting down: no new requests; running jobs go back to the queue")
	sctx, cancel := context.WithTimeout(context.Background(), c.shutdown)
	defer cancel()
	herr := srv.Shutdown(sctx)
	rerr := runner.Stop(sctx)
	log.Info("stopped")
	return errors.Join(herr, rerr)
}
