package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// needNATSServer returns the nats-server binary (a failure on CI, a skip
// elsewhere, when it is missing).
func needNATSServer(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the nats-server binary")
	}
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nats-server not found: run scripts/install-deps.sh")
		}
		t.Skip("nats-server not installed")
	}
	return bin
}

// testPKI writes a CA, a server certificate for 127.0.0.1 and a client
// certificate (all ECDSA P-256, signed by the CA) into dir.
func testPKI(t *testing.T, dir string) (ca, srvCert, srvKey, cliCert, cliKey string) {
	t.Helper()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "wyvern test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	leaf := func(serial int64, cn string, usage x509.ExtKeyUsage, ips []net.IP) (string, string) {
		k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: ips}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kd, _ := x509.MarshalECPrivateKey(k)
		return write(cn+".pem", "CERTIFICATE", der), write(cn+"-key.pem", "EC PRIVATE KEY", kd)
	}
	ca = write("ca.pem", "CERTIFICATE", caDER)
	srvCert, srvKey = leaf(2, "server", x509.ExtKeyUsageServerAuth, []net.IP{net.ParseIP("127.0.0.1")})
	cliCert, cliKey = leaf(3, "client", x509.ExtKeyUsageClientAuth, nil)
	return
}

// authCluster is nats-server with deploy/nats/nats-server.conf behind TLS
// with client certificates.
type authCluster struct {
	log                      *syncBuf // nats-server's
	url                      string
	ca, cliCert, cliKey      string
	coordPW, workerPW, subPW string
}

func startAuthNATS(t *testing.T) *authCluster {
	t.Helper()
	natsBin := needNATSServer(t)
	dir := t.TempDir()
	c := &authCluster{coordPW: "coord-pw-7", workerPW: "worker-pw-7", subPW: "submit-pw-7"}
	var srvCert, srvKey string
	c.ca, srvCert, srvKey, c.cliCert, c.cliKey = testPKI(t, dir)
	port := freePort(t)
	c.url = fmt.Sprintf("tls://127.0.0.1:%d", port)
	cmd := exec.Command(natsBin, "-c", "../../deploy/nats/nats-server.conf", "-a", "127.0.0.1", "-p", fmt.Sprint(port),
		"-m", "0", "-sd", filepath.Join(dir, "js"),
		"--tls", "--tlscert", srvCert, "--tlskey", srvKey, "--tlsverify", "--tlscacert", c.ca)
	cmd.Env = append(os.Environ(), "WYVERN_COORDINATOR_PASSWORD="+c.coordPW, "WYVERN_WORKER_PASSWORD="+c.workerPW,
		"WYVERN_SUBMIT_PASSWORD="+c.subPW)
	c.log = &syncBuf{}
	cmd.Stdout, cmd.Stderr = c.log, c.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("nats-server log:\n%s", c.log.String())
		}
	})
	waitPort(t, port)
	return c
}

// env is the environment of a wyvern process logging in as user.
func (c *authCluster) env(user, pw string) []string {
	return append(os.Environ(), "WYVERN_NATS_URL="+c.url, "WYVERN_NATS_USER="+user, "WYVERN_NATS_PASSWORD="+pw,
		"WYVERN_TLS_CA="+c.ca, "WYVERN_TLS_CERT="+c.cliCert, "WYVERN_TLS_KEY="+c.cliKey)
}

// connect connects a test client as user, collecting asynchronous errors
// (permission violations).
func (c *authCluster) connect(t *testing.T, user, pw string) (*nats.Conn, func() []error) {
	t.Helper()
	var mu sync.Mutex
	var errs []error
	nc, err := nats.Connect(c.url, nats.UserInfo(user, pw), nats.RootCAs(c.ca), nats.ClientCert(c.cliCert, c.cliKey),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}))
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	t.Cleanup(nc.Close)
	return nc, func() []error {
		mu.Lock()
		defer mu.Unlock()
		return append([]error(nil), errs...)
	}
}

// TestAuthCluster runs a cluster through nats-server configured with
// deploy/nats/nats-server.conf, TLS with client certificates generated here,
// and credentials passed through the environment only: the experiment
// succeeds, the password never appears in a log line, a wrong password and
// a client without credentials are refused with a clear error, and each
// role is refused what its permissions forbid (a worker publishing jobs,
// advisories or purging the job stream; a submitter publishing results or
// jobs).
func TestAuthCluster(t *testing.T) {
	requireClang(t)
	c := startAuthNATS(t)
	bin := buildWyvern(t)
	start := func(user, pw string, args ...string) *bytes.Buffer {
		cmd := exec.Command(bin, args...)
		cmd.Env = c.env(user, pw)
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
			if t.Failed() {
				t.Logf("%s output:\n%s", args[0], buf.String())
			}
		})
		return &buf
	}
	coordLog := start("coordinator", c.coordPW, "coordinator")
	workerLog := start("worker", c.workerPW, "worker", "--id", "w-auth")

	const file = "../../testdata/mt/counter_race.c"
	const q = "Pr[<=5000](<> counter == 10) {Epsilon=0.05}"
	sub := exec.Command(bin, "submit", file, q, "--seed", "3", "--json")
	sub.Env = c.env("submitter", c.subPW)
	var out, errb bytes.Buffer
	sub.Stdout, sub.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- sub.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("submit as submitter: %v\n%s", err, errb.String())
		}
	case <-time.After(2 * time.Minute):
		sub.Process.Kill()
		t.Fatalf("submit did not finish:\n%s", errb.String())
	}
	var lout, lerr bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--json", "--seed", "3", file, q}, &lout, &lerr); rc != 0 {
		t.Fatalf("check: %d %s", rc, lerr.String())
	}
	if a, b := stripRun(t, out.Bytes()), stripRun(t, lout.Bytes()); a != b {
		t.Errorf("authenticated cluster's result differs from check's:\n%s\n%s", a, b)
	}

	// Wrong password, no credentials: refused, saying so, nothing secret shown.
	for _, cse := range []struct{ user, pw string }{{"submitter", "not-the-password"}, {"", ""}} {
		cmd := exec.Command(bin, "submit", file, q)
		cmd.Env = c.env(cse.user, cse.pw)
		var eb bytes.Buffer
		cmd.Stderr = &eb
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("submit as %q/%q: %v, want exit status 1", cse.user, cse.pw, err)
		}
		if !strings.Contains(eb.String(), "refused the credentials") {
			t.Errorf("submit as %q/%q: stderr %q does not say the credentials were refused", cse.user, cse.pw, eb.String())
		}
		if cse.pw != "" && strings.Contains(eb.String(), cse.pw) {
			t.Errorf("stderr shows the password: %q", eb.String())
		}
	}
	// A password in the URL is accepted and never logged.
	cmd := exec.Command(bin, "worker", "--id", "w-url", "--nats",
		strings.Replace(c.url, "tls://", "tls://worker:"+c.workerPW+"@", 1))
	cmd.Env = append(os.Environ(), "WYVERN_TLS_CA="+c.ca, "WYVERN_TLS_CERT="+c.cliCert, "WYVERN_TLS_KEY="+c.cliKey)
	var ub bytes.Buffer
	cmd.Stdout, cmd.Stderr = &ub, &ub
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	if !strings.Contains(ub.String(), "serving jobs from tls://worker:xxxxx@") {
		t.Errorf("worker with credentials in its URL: log %q lacks the redacted URL", ub.String())
	}
	for name, l := range map[string]string{"coordinator": coordLog.String(), "worker": workerLog.String(),
		"worker (URL)": ub.String(), "submit": errb.String()} {
		for _, pw := range []string{c.coordPW, c.workerPW, c.subPW} {
			if strings.Contains(l, pw) {
				t.Errorf("the %s's log shows a password:\n%s", name, l)
			}
		}
	}

	// The roles' permissions are enough for all they do (the worker's watch
	// of the experiments bucket included: without it, it reads states again
	// and again).
	if strings.Contains(workerLog.String(), "the experiments bucket") {
		t.Errorf("the worker could not watch the experiments bucket:\n%s", workerLog.String())
	}
	if strings.Contains(c.log.String(), "Violation") {
		t.Errorf("the cluster's clients met permission violations:\n%s", c.log.String())
	}

	// What each role may not do.
	forbidden := []struct {
		user, pw, subject string
	}{
		{"worker", c.workerPW, "wyvern.jobs.forged"},
		{"worker", c.workerPW, "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.WYVERN_JOBS.workers"},
		{"worker", c.workerPW, "$JS.API.STREAM.PURGE.WYVERN_JOBS"},
		{"worker", c.workerPW, "$KV.wyvern_experiments.forged"},
		{"worker", c.workerPW, "wyvern.api.submit"},
		{"submitter", c.subPW, "wyvern.results.forged"},
		{"submitter", c.subPW, "wyvern.jobs.forged"},
		{"submitter", c.subPW, "wyvern.heartbeat.forged"},
		{"submitter", c.subPW, "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.WYVERN_JOBS.workers"},
		{"submitter", c.subPW, "_INBOX.forged"},
	}
	for _, f := range forbidden {
		nc, errs := c.connect(t, f.user, f.pw)
		if err := nc.Publish(f.subject, []byte(`{"version":3}`)); err != nil {
			t.Fatal(err)
		}
		nc.Flush()
		deadline := time.Now().Add(3 * time.Second)
		for len(errs()) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if e := errs(); len(e) == 0 || !strings.Contains(strings.ToLower(e[0].Error()), "permissions violation") {
			t.Errorf("%s publishing to %s: errors %v, want a permissions violation", f.user, f.subject, e)
		}
	}
	if !strings.Contains(c.log.String(), "Violation") {
		t.Error("nats-server logs no permission violations: the check that the cluster met none means nothing")
	}
	// And what they may: a worker publishes results and heartbeats.
	nc, errs := c.connect(t, "worker", c.workerPW)
	nc.Publish("wyvern.heartbeat.w-test", []byte(`{"version":3}`))
	nc.Flush()
	time.Sleep(200 * time.Millisecond)
	if e := errs(); len(e) != 0 {
		t.Errorf("worker heartbeat refused: %v", e)
	}
}

// TestNATSFlags: connection options come from flags or the environment (a
// flag wins), conflicting methods and half TLS pairs are errors, and URLs
// are redacted.
func TestNATSFlags(t *testing.T) {
	parse := func(env map[string]string, args ...string) (*natsFlags, error) {
		for _, e := range natsEnv {
			t.Setenv(e.env, env[e.env])
		}
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		var n natsFlags
		n.register(fs, "")
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		n.fromEnv(fs)
		_, err := n.options()
		return &n, err
	}
	n, err := parse(map[string]string{"WYVERN_NATS_USER": "alice", "WYVERN_NATS_PASSWORD": "pw", "WYVERN_NATS_URL": "nats://h:1"})
	if err != nil || n.user != "alice" || n.password != "pw" || n.url != "nats://h:1" {
		t.Errorf("from the environment: %+v, %v", n, err)
	}
	n, err = parse(map[string]string{"WYVERN_NATS_USER": "alice", "WYVERN_NATS_PASSWORD": "pw"}, "--nats-user", "bob")
	if err != nil || n.user != "bob" || n.password != "pw" {
		t.Errorf("a flag wins over the environment: %+v, %v", n, err)
	}
	if _, err := parse(nil, "--nats-user", "a", "--nats-token", "t"); err == nil || !strings.Contains(err.Error(), "one way") {
		t.Errorf("user and token together: %v", err)
	}
	if _, err := parse(map[string]string{"WYVERN_NATS_PASSWORD": "pw"}); err == nil || !strings.Contains(err.Error(), "needs --nats-user") {
		t.Errorf("password without user: %v", err)
	}
	if _, err := parse(nil, "--tls-cert", "x.pem"); err == nil || !strings.Contains(err.Error(), "go together") {
		t.Errorf("cert without key: %v", err)
	}
	if _, err := parse(nil, "--tls-ca", "/nonexistent/ca.pem"); err == nil || !strings.Contains(err.Error(), "/nonexistent/ca.pem") {
		t.Errorf("missing CA file: %v", err)
	}
	if _, err := parse(nil, "--nats-nkey", "/nonexistent/seed"); err == nil {
		t.Error("missing nkey seed file accepted")
	}
	for in, want := range map[string]string{
		"nats://alice:s3cret@h:4222":               "nats://alice:xxxxx@h:4222",
		"nats://tok3n@h:4222":                      "nats://xxxxx@h:4222",
		"nats://h:4222":                            "nats://h:4222",
		"nats://a:p@h1:1,nats://b:q@h2:2":          "nats://a:xxxxx@h1:1,nats://b:xxxxx@h2:2",
		"dial nats://alice:s3cret@h:1 failed: EOF": "dial nats://alice:xxxxx@h:1 failed: EOF",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
	for v, want := range map[string]bool{"2.9.10": false, "2.10.0": true, "v2.15.2": true, "2.10.0-beta.1": true, "3.0": true, "1.99.99": false, "odd": true} {
		if got := versionAtLeast(v, minServer); got != want {
			t.Errorf("versionAtLeast(%q, 2.10.0) = %v", v, got)
		}
	}
	// The error of an unreachable server names the URL without its password.
	var out, errb bytes.Buffer
	rc := dispatch([]string{"worker", "--nats", "nats://alice:s3cret@127.0.0.1:1"}, &out, &errb)
	if rc != 1 || strings.Contains(errb.String(), "s3cret") || !strings.Contains(errb.String(), "alice:xxxxx@127.0.0.1:1") {
		t.Errorf("unreachable server with credentials: exit %d, %q", rc, errb.String())
	}
}

// syncBuf is a bytes.Buffer safe for a process's output and a reader.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
