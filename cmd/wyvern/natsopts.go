package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// natsFlags are the connection options of every command that talks to a
// NATS server (coordinator, worker, submit): the server URL, one way of
// authenticating and TLS. Each flag can come from an environment variable
// instead (natsEnv), so that secrets stay off the command line and out of
// the process list; a flag given on the command line wins.
type natsFlags struct {
	url      string
	creds    string // JWT + nkey seed file (operator/account mode)
	nkey     string // nkey seed file
	user     string
	password string
	token    string
	tlsCA    string
	tlsCert  string
	tlsKey   string
}

// natsEnv names the environment variable of each connection flag.
var natsEnv = []struct{ flag, env, help string }{
	{"nats", "WYVERN_NATS_URL", "NATS server URL(s), comma-separated"},
	{"nats-creds", "WYVERN_NATS_CREDS", "NATS credentials file (user JWT and nkey seed)"},
	{"nats-nkey", "WYVERN_NATS_NKEY", "NATS nkey seed file"},
	{"nats-user", "WYVERN_NATS_USER", "NATS user name"},
	{"nats-password", "WYVERN_NATS_PASSWORD", "NATS password (prefer the environment variable)"},
	{"nats-token", "WYVERN_NATS_TOKEN", "NATS authentication token (prefer the environment variable)"},
	{"tls-ca", "WYVERN_TLS_CA", "PEM file of the CA(s) that signed the NATS server's certificate"},
	{"tls-cert", "WYVERN_TLS_CERT", "PEM client certificate for TLS client authentication (with --tls-key)"},
	{"tls-key", "WYVERN_TLS_KEY", "PEM private key of --tls-cert"},
}

// register adds the connection flags to fs; urlHelp overrides the URL's
// description.
func (n *natsFlags) register(fs *flag.FlagSet, urlHelp string) {
	dst := []*string{&n.url, &n.creds, &n.nkey, &n.user, &n.password, &n.token, &n.tlsCA, &n.tlsCert, &n.tlsKey}
	for i, e := range natsEnv {
		help := e.help
		if i == 0 && urlHelp != "" {
			help = urlHelp
		}
		def := ""
		if i == 0 {
			def = nats.DefaultURL
		}
		fs.StringVar(dst[i], e.flag, def, fmt.Sprintf("%s (env %s)", help, e.env))
	}
}

// fromEnv fills the flags not given on the command line from their
// environment variables.
func (n *natsFlags) fromEnv(fs *flag.FlagSet) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	dst := []*string{&n.url, &n.creds, &n.nkey, &n.user, &n.password, &n.token, &n.tlsCA, &n.tlsCert, &n.tlsKey}
	for i, e := range natsEnv {
		if v, ok := os.LookupEnv(e.env); ok && !set[e.flag] && v != "" {
			*dst[i] = v
		}
	}
}

// options checks the flags and turns them into connection options.
func (n *natsFlags) options() ([]nats.Option, error) {
	var opts []nats.Option
	var methods []string
	if n.creds != "" {
		methods = append(methods, "--nats-creds")
		opts = append(opts, nats.UserCredentials(n.creds))
	}
	if n.nkey != "" {
		methods = append(methods, "--nats-nkey")
		o, err := nats.NkeyOptionFromSeed(n.nkey)
		if err != nil {
			return nil, fmt.Errorf("--nats-nkey %s: %w", n.nkey, err)
		}
		opts = append(opts, o)
	}
	if n.user != "" || n.password != "" {
		if n.user == "" {
			return nil, errors.New("--nats-password (WYVERN_NATS_PASSWORD) needs --nats-user")
		}
		methods = append(methods, "--nats-user")
		opts = append(opts, nats.UserInfo(n.user, n.password))
	}
	if n.token != "" {
		methods = append(methods, "--nats-token")
		opts = append(opts, nats.Token(n.token))
	}
	if len(methods) > 1 {
		return nil, fmt.Errorf("choose one way of authenticating to NATS, not %s", strings.Join(methods, " and "))
	}
	if (n.tlsCert == "") != (n.tlsKey == "") {
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	for _, f := range []string{n.creds, n.tlsCA, n.tlsCert, n.tlsKey} {
		if f == "" {
			continue
		}
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("NATS connection option: %w", err)
		}
	}
	if n.tlsCA != "" {
		opts = append(opts, nats.RootCAs(n.tlsCA))
	}
	if n.tlsCert != "" {
		opts = append(opts, nats.ClientCert(n.tlsCert, n.tlsKey))
	}
	return opts, nil
}

// connect connects to NATS as name, failing fast when the server is
// unreachable or refuses the credentials. Once connected the connection
// reconnects without limit (a restarted server is found again); losses and
// recoveries are logged to logw (nil: quiet), with the URL redacted.
func (n *natsFlags) connect(name string, logw io.Writer) (*nats.Conn, error) {
	opts, err := n.options()
	if err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) {
		if logw != nil {
			fmt.Fprintf(logw, "%s: "+format+"\n", append([]any{name}, args...)...)
		}
	}
	opts = append(opts, nats.Name(name), nats.Timeout(3*time.Second), nats.RetryOnFailedConnect(false),
		nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond), nats.ReconnectJitter(250*time.Millisecond, time.Second),
		nats.ReconnectBufSize(64<<20),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			// nats.go calls this handler at the client's own Close too
			// (submit closing at its end): that is no loss.
			if nc.IsClosed() {
				return
			}
			if err != nil {
				logf("lost NATS at %s (%s); reconnecting", redactURL(n.url), redactSecrets(err.Error(), n))
			} else {
				logf("lost NATS at %s; reconnecting", redactURL(n.url))
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { logf("reconnected to NATS at %s", redactURL(nc.ConnectedUrl())) }),
		nats.ErrorHandler(func(nc *nats.Conn, sub *nats.Subscription, err error) {
			if sub != nil {
				logf("NATS error on %s: %v", sub.Subject, err)
			} else {
				logf("NATS error: %v", err)
			}
		}))
	nc, err := nats.Connect(n.url, opts...)
	if err != nil {
		u := redactURL(n.url)
		if errors.Is(err, nats.ErrAuthorization) || strings.Contains(err.Error(), "authorization violation") ||
			strings.Contains(err.Error(), "Authorization Violation") {
			return nil, fmt.Errorf("NATS at %s refused the credentials (authorization violation): check --nats-user/--nats-password, --nats-token, --nats-nkey or --nats-creds", u)
		}
		return nil, fmt.Errorf("cannot reach NATS at %s: %s", u, redactSecrets(err.Error(), n))
	}
	if v := nc.ConnectedServerVersion(); v != "" && !versionAtLeast(v, minServer) {
		logf("warning: nats-server %s at %s is older than %d.%d.%d, the oldest Wyvern supports (on 2.9.10 concurrent experiments hung with their jobs left in the stream): upgrade it (scripts/install-deps.sh)",
			v, redactURL(n.url), minServer[0], minServer[1], minServer[2])
	}
	return nc, nil
}

// minServer is the oldest nats-server version Wyvern supports.
var minServer = [3]int{2, 10, 0}

// versionAtLeast reports whether version v ("2.10.3", "v2.11.0-beta")
// is min or later; an unreadable version passes.
func versionAtLeast(v string, min [3]int) bool {
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	for i := 0; i < 3; i++ {
		n := 0
		if i < len(parts) {
			var err error
			if n, err = strconv.Atoi(parts[i]); err != nil {
				return true
			}
		}
		if n != min[i] {
			return n > min[i]
		}
	}
	return true
}

// userinfo matches the credentials of a URL: scheme://user:password@ or
// scheme://token@.
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)([^:@/\s,]*)(:[^@/\s,]*)?@`)

// redactURL hides the password (or token) of every URL in s (a URL, a
// comma-separated list of them, or a message quoting them):
// nats://alice:s3cret@host becomes nats://alice:xxxxx@host and
// nats://tok@host nats://xxxxx@host.
func redactURL(s string) string {
	return userinfo.ReplaceAllStringFunc(s, func(m string) string {
		g := userinfo.FindStringSubmatch(m)
		if g[3] != "" {
			return g[1] + g[2] + ":xxxxx@"
		}
		return g[1] + "xxxxx@"
	})
}

// redactSecrets removes the password and token of n, and those in URLs,
// from s (an error message of the client library).
func redactSecrets(s string, n *natsFlags) string {
	for _, sec := range []string{n.password, n.token} {
		if len(sec) >= 3 {
			s = strings.ReplaceAll(s, sec, "xxxxx")
		}
	}
	return redactURL(s)
}
