package symbolic

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

const (
	docTableBegin = "<!-- generated from the platform table's BMC column (vm/platform_bmc.go) by TestBMCDoc; WYVERN_UPDATE_DOCS=1 rewrites it -->"
	docTableEnd   = "<!-- end of the generated list -->"
)

// bmcDocTable is docs/bmc.md's list of platform functions: the encoded ones
// with how, the refused ones grouped by reason.
func bmcDocTable() string {
	var b strings.Builder
	b.WriteString("| function | BMC encodes it as |\n| --- | --- |\n")
	var reasons []string
	refused := map[string][]string{}
	for _, r := range vm.BMCTable() {
		if r.Support == vm.BMCEncoded {
			fmt.Fprintf(&b, "| `%s` | %s |\n", r.Name, strings.ReplaceAll(r.How, "|", "\\|"))
			continue
		}
		if _, ok := refused[r.How]; !ok {
			reasons = append(reasons, r.How)
		}
		refused[r.How] = append(refused[r.How], "`"+r.Name+"`")
	}
	b.WriteString("\nRefused, with the reason the error gives:\n\n")
	for _, why := range reasons {
		fmt.Fprintf(&b, "- %s: %s\n", why, strings.Join(refused[why], ", "))
	}
	return b.String()
}

// TestBMCDoc checks that docs/bmc.md lists the platform functions as the
// platform table's BMC column decides them.
func TestBMCDoc(t *testing.T) {
	const path = "../docs/bmc.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, docTableBegin), strings.Index(doc, docTableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated list of platform functions (markers %q ... %q)", path, docTableBegin, docTableEnd)
	}
	want := docTableBegin + "\n\n" + bmcDocTable() + "\n"
	if doc[i:j] == want {
		return
	}
	if os.Getenv("WYVERN_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the list of platform functions differs from vm/platform_bmc.go; rerun with WYVERN_UPDATE_DOCS=1 go test ./symbolic -run TestBMCDoc", path)
}
