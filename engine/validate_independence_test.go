package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestValidateOwesNothingToThePlanner: Validate's files (validate.go and
// validate_*.go) name nothing declared in the planner's files (model.go,
// plan.go, planner_check.go), call no method the planner's types declare,
// and import neither routeplan nor, but for the fleet bound in
// validate_metrics.go, loadplan.
func TestValidateOwesNothingToThePlanner(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	planner := map[string]bool{} // top-level names of the planner's files
	methods := map[string]bool{} // methods declared there
	for _, name := range []string{"model.go", "plan.go", "planner_check.go"} {
		if _, err := os.Stat(name); err != nil {
			continue // planner_check.go goes when plan.go calls Validate
		}
		f := parse(name)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					methods[d.Name.Name] = true
				} else {
					planner[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						planner[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							planner[n.Name] = true
						}
					}
				}
			}
		}
	}
	files, err := filepath.Glob("validate*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		checked++
		f := parse(name)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasSuffix(p, "/routeplan") || (strings.HasSuffix(p, "/loadplan") && name != "validate_metrics.go") {
				t.Errorf("%s imports %s", name, p)
			}
		}
		selected := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				selected[n.Sel] = true
				if methods[n.Sel.Name] {
					t.Errorf("%s: .%s is the name of a planner method", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.Ident:
				if !selected[n] && planner[n.Name] {
					t.Errorf("%s: %s is declared by the planner", fset.Position(n.Pos()), n.Name)
				}
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("only %d validator files found", checked)
	}
}
