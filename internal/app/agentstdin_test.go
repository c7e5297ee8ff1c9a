package app

import (
	"bytes"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// TestAgentStdinBounded: `--agent -` reads at most maxAgentRequest bytes
// of a request (here an endless one, cut at 64 MiB) and refuses it with
// exit 2 and one line, without reading the rest.
func TestAgentStdinBounded(t *testing.T) {
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	t.Setenv("EVGREP_STATE_DIR", t.TempDir())
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	const endless = 64 << 20
	var written atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer wr.Close()
		chunk := bytes.Repeat([]byte(" "), 64<<10)
		copy(chunk, `{"pattern":"x",`)
		for written.Load() < endless {
			n, err := wr.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
			chunk = bytes.Repeat([]byte(" "), 64<<10)
		}
	}()
	var out, errb strings.Builder
	code := Main([]string{"--agent", "-"}, rd, &out, &errb)
	rd.Close()
	<-done
	if code != 2 {
		t.Errorf("exit %d, want 2 (stdout %.200q)", code, out.String())
	}
	msg := errb.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "longer than 4194304 bytes") {
		t.Errorf("stderr %.300q, want one line naming the cap", msg)
	}
	if n := written.Load(); n > maxAgentRequest+(1<<20) {
		t.Errorf("%d bytes of the request were read, want at most about %d", n, maxAgentRequest)
	}
}

// TestAgentStdinAtCap: a request just under the cap is still answered.
func TestAgentStdinAtCap(t *testing.T) {
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	t.Setenv("EVGREP_STATE_DIR", t.TempDir())
	dir := t.TempDir()
	os.WriteFile(dir+"/a.txt", []byte("needle\n"), 0o644)
	req := `{"pattern":"needle","path":"` + dir + `"}`
	body := req + strings.Repeat(" ", maxAgentRequest-len(req))
	f, err := os.CreateTemp(t.TempDir(), "req")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(body)
	f.Seek(0, 0)
	defer f.Close()
	var out, errb strings.Builder
	if code := Main([]string{"--agent", "-"}, f, &out, &errb); code != 0 || !strings.Contains(out.String(), "needle") {
		t.Errorf("exit %d, stdout %.300q, stderr %.300q", code, out.String(), errb.String())
	}
}
