package binpack

import (
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"
)

// This file computes the Gilmore–Gomory LP bound of one-dimensional bin
// packing by column generation:
//
//	min sum_p x_p  subject to  sum_p a_tp x_p >= d_t  (every item type t),  x >= 0,
//
// where a pattern p holds a_tp <= d_t items of type t and fits a bin. The
// restricted master is solved by a revised simplex with an explicit basis
// inverse, updated at every pivot and recomputed from an LU factorisation of
// the basis every refactorEvery pivots; the pricing problem is a bounded
// knapsack with the duals as values. Only the patterns of the current basis are kept: a pattern that
// leaves the basis comes back through pricing if it is attractive again.
//
// Validity does not rest on the simplex being exact. For any duals y, y+ =
// max(y, 0) divided by z = max(1, best knapsack value under y+) satisfies
// every dual constraint, so sum_t d_t y+_t / z is a lower bound (Farley's
// bound); the knapsack is solved exactly, or replaced by a proven upper bound.

// lpTolerance is what the simplex treats as zero; boundSlack is taken off the
// proven LP value before rounding up, so that rounding error in summing the
// duals can never push the integer bound one too high.
const (
	lpTolerance = 1e-9
	boundSlack  = 1e-6
)

// itemTypes groups the items of a one-dimensional instance by size.
type itemTypes struct {
	c     int64
	w     []int64 // distinct positive sizes, decreasing
	dem   []int   // number of items of each size
	items [][]int // item indices of each size
	zero  []int   // items of size 0: they fit anywhere and need no bin
}

func newItemTypes(in *instance) *itemTypes {
	t := &itemTypes{c: in.cap[0]}
	order := in.decreasing(in.w)
	for _, i := range order {
		s := in.size[i]
		if s == 0 {
			t.zero = append(t.zero, i)
			continue
		}
		if len(t.w) == 0 || t.w[len(t.w)-1] != s {
			t.w = append(t.w, s)
			t.dem = append(t.dem, 0)
			t.items = append(t.items, nil)
		}
		last := len(t.w) - 1
		t.dem[last]++
		t.items[last] = append(t.items[last], i)
	}
	return t
}

// lpResult is the outcome of column generation.
type lpResult struct {
	generated [][]int   // patterns found by pricing, for later solves
	bound     float64   // proven lower bound (Farley)
	exact     bool      // the master reached LP optimality
	patterns  [][]int   // basic patterns (counts per type), for rounding heuristics
	x         []float64 // their values
	cg        *colgen   // the state, to resume
}

// colgen is the state of the restricted master problem.
type colgen struct {
	t        *itemTypes
	m        int
	binv     []float64   // m*m basis inverse, row-major
	cols     [][]float64 // basis columns
	cost     []float64   // their costs: 1 for a pattern, 0 for a surplus column
	xB       []float64
	pivots   int
	iter     int
	pool     []spattern
	res      lpResult // bound, exactness and generated patterns so far
	y, yp, u []float64
	needY    bool
	nz       []int
	ks       *knapsack

	// Refactorisation: the basis matrix, its LU factors, the identity and
	// the demands, allocated on the first refactorisation.
	basis *mat.Dense
	lu    mat.LU
	eye   *mat.DiagDense
	dem   *mat.VecDense
}

// spattern is a pattern in sparse form, kept in the column pool.
type spattern struct {
	ty   []int
	cnt  []float64
	cost float64
}

func sparse(p []int) spattern {
	var sp spattern
	for t, a := range p {
		if a > 0 {
			sp.ty = append(sp.ty, t)
			sp.cnt = append(sp.cnt, float64(a))
		}
	}
	sp.cost = 1
	return sp
}

// lpBound runs column generation until the LP is solved, the proven bound
// reaches target (nothing more is needed), the bound cannot rise to the next
// integer any more, or the deadline passes. A target <= 0 asks for the LP
// optimum itself, which the diving heuristic needs. Every pattern generated stays in
// a pool that is priced before the knapsack, and the pool starts with the
// patterns of the given packings (counts per type): re-pricing the pool is
// far cheaper than solving a knapsack.
func lpBound(t *itemTypes, start [][]int, target int, deadline time.Time, stop func() bool) lpResult {
	if len(t.w) == 0 {
		return lpResult{exact: true}
	}
	return newColgen(t, start).run(target, deadline, stop)
}

// newColgen sets up the restricted master with the identity-like basis of
// single-type patterns and a pool holding the dual cuts and the start
// patterns.
func newColgen(t *itemTypes, start [][]int) *colgen {
	m := len(t.w)
	cg := &colgen{needY: true, t: t, m: m, binv: make([]float64, m*m), cols: make([][]float64, m), cost: make([]float64, m), xB: make([]float64, m)}
	cg.ks = newKnapsack(t)
	for i := range m {
		a := min(int64(t.dem[i]), t.c/t.w[i])
		col := make([]float64, m)
		col[i] = float64(a)
		cg.cols[i] = col
		cg.cost[i] = 1
		cg.binv[i*m+i] = 1 / float64(a)
		cg.xB[i] = float64(t.dem[i]) / float64(a)
	}
	// Dual cuts (Ben Amor, Desrosiers & Valério de Carvalho 2006): a larger
	// item can always stand in for a smaller one, so some optimal duals
	// decrease with the size. The zero-cost column "one more of type t+1,
	// one fewer of type t" imposes y_t >= y_t+1 on the duals without
	// changing the LP optimum, and cuts the tailing-off of column generation.
	for ty := 0; ty+1 < m; ty++ {
		cg.pool = append(cg.pool, spattern{ty: []int{ty, ty + 1}, cnt: []float64{-1, 1}})
	}
	for _, p := range start {
		cg.pool = append(cg.pool, sparse(p))
	}
	cg.y = make([]float64, m)
	cg.yp = make([]float64, m)
	cg.u = make([]float64, m)
	return cg
}

// run continues column generation from the current state (so a run stopped
// at a target can be resumed to the LP optimum) and returns the result so
// far.
func (cg *colgen) run(target int, deadline time.Time, stop func() bool) lpResult {
	maxIter := 200*cg.m + 5000
	for ; cg.iter < maxIter; cg.iter++ {
		if cg.iter%4 == 0 && (time.Now().After(deadline) || stop()) {
			break
		}
		cg.updateDuals()
		col, cost, ok := cg.entering(target)
		if !ok {
			break
		}
		if !cg.pivot(col, cost, cg.u, cg.y) {
			cg.refactor()
			if !cg.pivot(col, cost, cg.u, cg.y) {
				break
			}
		}
	}
	return cg.result()
}

// updateDuals sets the duals y = c_B^T B^-1 after a refactorisation;
// otherwise pivot keeps them up to date.
func (cg *colgen) updateDuals() {
	if !cg.needY {
		return
	}
	y, m := cg.y, cg.m
	clear(y)
	for r := range m {
		if cr := cg.cost[r]; cr != 0 {
			row := cg.binv[r*m : (r+1)*m]
			for j, v := range row {
				y[j] += cr * v
			}
		}
	}
	cg.needY = false
}

// entering returns the column to enter the basis and its cost: a surplus
// column with negative reduced cost first, then the most attractive pool
// pattern, and only then a pattern the knapsack prices. ok is false when
// column generation ends.
func (cg *colgen) entering(target int) (col []float64, cost float64, ok bool) {
	y, m := cg.y, cg.m
	enter := -1
	for j, v := range y {
		if v < -lpTolerance && (enter < 0 || v < y[enter]) {
			enter = j
		}
	}
	if enter >= 0 {
		col = make([]float64, m)
		col[enter] = -1
		return col, 0, true
	}
	bestP, bestRC := -1, -1e-7
	for pi, sp := range cg.pool {
		rc := sp.cost
		for x, ty := range sp.ty {
			rc -= y[ty] * sp.cnt[x]
		}
		if rc < bestRC {
			bestP, bestRC = pi, rc
		}
	}
	if bestP >= 0 {
		col = make([]float64, m)
		for x, ty := range cg.pool[bestP].ty {
			col[ty] = cg.pool[bestP].cnt[x]
		}
		return col, cg.pool[bestP].cost, true
	}
	return cg.price(target)
}

// price solves the knapsack for the nonnegative duals, raises the bound by
// the dual feasible solution it proves, and returns the pattern it finds
// as the entering column (added to the pool). ok is false when the LP is
// optimal, the bound reaches target (when positive) or can rise no
// further towards it, or pricing finds nothing.
func (cg *colgen) price(target int) (col []float64, cost float64, ok bool) {
	yp, m, res := cg.yp, cg.m, &cg.res
	for j, v := range cg.y {
		yp[j] = max(v, 0)
	}
	z, pat, exact := cg.ks.solve(yp)
	dy := 0.0
	for j, v := range yp {
		dy += float64(cg.t.dem[j]) * v
	}
	if f := dy / max(1, z); f > res.bound {
		res.bound = f
	}
	if exact && z <= 1+lpTolerance {
		res.exact = true
		return nil, 0, false
	}
	if target > 0 && int(math.Ceil(res.bound-boundSlack)) >= target {
		return nil, 0, false
	}
	primal := 0.0
	for r := range m {
		primal += cg.cost[r] * cg.xB[r]
	}
	if target > 0 && math.Ceil(primal-boundSlack) <= math.Ceil(res.bound-boundSlack) {
		return nil, 0, false // the integer bound cannot rise any more
	}
	pv := 0.0
	for j, a := range pat {
		pv += yp[j] * float64(a)
	}
	if pv <= 1+lpTolerance {
		return nil, 0, false // pricing is inexact and finds nothing: stop with the proven bound
	}
	col = make([]float64, m)
	for j, a := range pat {
		col[j] = float64(a)
	}
	cg.pool = append(cg.pool, sparse(pat))
	res.generated = append(res.generated, pat)
	return col, 1, true
}

// result returns the bound so far and the basic patterns with their values.
func (cg *colgen) result() lpResult {
	res := &cg.res
	out := lpResult{bound: res.bound, exact: res.exact, generated: slices.Clone(res.generated), cg: cg}
	for r := range cg.m {
		if cg.cost[r] == 1 && cg.xB[r] > lpTolerance {
			p := make([]int, cg.m)
			for j, v := range cg.cols[r] {
				p[j] = int(math.Round(v))
			}
			out.patterns = append(out.patterns, p)
			out.x = append(out.x, cg.xB[r])
		}
	}
	return out
}

// pivot brings col into the basis; it reports false when no row can leave.
func (cg *colgen) pivot(col []float64, cost float64, u, y []float64) bool {
	m := cg.m
	var nz [8]int
	idx := nz[:0]
	rc := cost
	for j, v := range col {
		if v != 0 {
			idx = append(idx, j)
			rc -= y[j] * v
		}
	}
	for i := range m {
		row := cg.binv[i*m : (i+1)*m]
		s := 0.0
		for _, j := range idx {
			s += row[j] * col[j]
		}
		u[i] = s
	}
	leave := -1
	best := math.Inf(1)
	for r := range m {
		if u[r] > lpTolerance {
			ratio := max(cg.xB[r], 0) / u[r]
			if ratio < best-lpTolerance || (ratio <= best+lpTolerance && leave >= 0 && u[r] > u[leave]) {
				best, leave = ratio, r
			}
		}
	}
	if leave < 0 {
		return false
	}
	theta := max(cg.xB[leave], 0) / u[leave]
	for i := range m {
		cg.xB[i] -= theta * u[i]
	}
	cg.xB[leave] = theta
	pr := cg.binv[leave*m : (leave+1)*m]
	inv := 1 / u[leave]
	// The basis inverse stays sparse for these pattern matrices, so the
	// update runs over the nonzeros of the pivot row only.
	cg.nz = cg.nz[:0]
	for j := range pr {
		if pr[j] != 0 {
			pr[j] *= inv
			cg.nz = append(cg.nz, j)
		}
	}
	for i := range m {
		if i == leave || u[i] == 0 {
			continue
		}
		f := u[i]
		row := cg.binv[i*m : (i+1)*m]
		for _, j := range cg.nz {
			row[j] -= f * pr[j]
		}
	}
	// The new duals differ from the old by the entering reduced cost
	// times the pivot row of the new inverse.
	for _, j := range cg.nz {
		y[j] += rc * pr[j]
	}
	cg.cols[leave] = col
	cg.cost[leave] = cost
	cg.pivots++
	if cg.pivots%refactorEvery == 0 {
		cg.refactor()
	}
	return true
}

// refactor recomputes the basis inverse and the basic solution from the basis
// columns, so that rounding error does not build up over many pivots. The
// basis is factorised as PA = LU with partial pivoting (gonum's mat.LU, that
// is LAPACK's dgetrf), and the inverse and x_B = B^-1 d are solved from the
// factors. A basis that gonum judges singular or too ill-conditioned to solve
// (condition number above mat.ConditionTolerance) keeps its updated inverse.
func (cg *colgen) refactor() {
	m := cg.m
	if cg.basis == nil {
		cg.basis = mat.NewDense(m, m, nil)
		ones := make([]float64, m)
		for i := range ones {
			ones[i] = 1
		}
		cg.eye = mat.NewDiagDense(m, ones)
		dem := make([]float64, m)
		for i, d := range cg.t.dem {
			dem[i] = float64(d)
		}
		cg.dem = mat.NewVecDense(m, dem)
	}
	for r, col := range cg.cols {
		cg.basis.SetCol(r, col)
	}
	cg.lu.Factorize(cg.basis)
	var inv mat.Dense
	if err := cg.lu.SolveTo(&inv, false, cg.eye); err != nil {
		return
	}
	var xb mat.VecDense
	if err := cg.lu.SolveVecTo(&xb, false, cg.dem); err != nil {
		return
	}
	for i := range m {
		row := cg.binv[i*m : (i+1)*m]
		for j := range row {
			row[j] = inv.At(i, j)
		}
		cg.xB[i] = max(xb.AtVec(i), 0)
	}
	cg.needY = true
}

// knapsack solves max sum v_t a_t subject to sum w_t a_t <= c and
// 0 <= a_t <= min(d_t, c/w_t) by dynamic programming over the capacity,
// exactly when the capacity is at most scaledCapacity. Above it the sizes are
// divided by a scale: rounded up they give a pattern that surely fits (the
// entering column), rounded down an optimum that is surely not smaller than
// the true one (the value used in Farley's bound).
type knapsack struct {
	t      *itemTypes
	splitT []int // type of each binary-split piece
	splitK []int // copies in each piece
	dp     []float64
	take   []uint64 // piece-major bitset of (piece, capacity) choices
	words  int
	scale  int64
}

// scaledCapacity bounds the DP table: 5000 cells per binary-split piece.
const scaledCapacity = 5000

// refactorEvery is how many pivots pass between two recomputations of the
// basis inverse from scratch.
const refactorEvery = 500

func newKnapsack(t *itemTypes) *knapsack {
	k := &knapsack{t: t}
	for i, w := range t.w {
		q := min(int64(t.dem[i]), t.c/w)
		for s := int64(1); q > 0; s *= 2 {
			take := min(s, q)
			k.splitT = append(k.splitT, i)
			k.splitK = append(k.splitK, int(take))
			q -= take
		}
	}
	// Above scaledCapacity the DP runs on sizes divided by a scale: rounded
	// up, every pattern it finds fits the real bin; rounded down (in
	// scaledBound), its optimum bounds the real one from above.
	k.scale = 1
	if t.c > scaledCapacity {
		k.scale = (t.c + scaledCapacity - 1) / scaledCapacity
	}
	c := t.c / k.scale
	k.words = int(c/64) + 1
	k.dp = make([]float64, c+1)
	k.take = make([]uint64, len(k.splitT)*k.words)
	return k
}

// solve returns the optimum (or, with exact false, an upper bound on it) and
// a best pattern found.
func (k *knapsack) solve(v []float64) (float64, []int, bool) {
	z, pat := k.solveDP(v)
	if k.scale == 1 {
		return z, pat, true
	}
	return max(z, k.scaledBound(v)), pat, false
}

// solveDP solves the knapsack on sizes rounded up to the scale, by dynamic
// programming over the capacity, and returns the value and the pattern.
func (k *knapsack) solveDP(v []float64) (float64, []int) {
	c := int(k.t.c / k.scale)
	up := func(w int64) int { return int((w + k.scale - 1) / k.scale) }
	dp := k.dp
	clear(dp)
	clear(k.take)
	for p, ti := range k.splitT {
		val := v[ti] * float64(k.splitK[p])
		if val <= 0 {
			continue
		}
		w := up(k.t.w[ti]) * k.splitK[p]
		bits := k.take[p*k.words : (p+1)*k.words]
		for cc := c; cc >= w; cc-- {
			if nv := dp[cc-w] + val; nv > dp[cc] {
				dp[cc] = nv
				bits[cc>>6] |= 1 << (uint(cc) & 63)
			}
		}
	}
	pat := make([]int, len(k.t.w))
	cc := c
	for p := len(k.splitT) - 1; p >= 0; p-- {
		if k.take[p*k.words+cc>>6]&(1<<(uint(cc)&63)) != 0 {
			pat[k.splitT[p]] += k.splitK[p]
			cc -= up(k.t.w[k.splitT[p]]) * k.splitK[p]
		}
	}
	z := 0.0
	for i, a := range pat {
		z += v[i] * float64(a)
	}
	return z, pat
}

// scaledBound is an upper bound on the knapsack optimum by dynamic
// programming on sizes divided by a scale and rounded down: a pattern that
// fits the bin also fits the scaled bin, since the sum of the rounded-down
// sizes is at most the rounded-down capacity. It costs at most
// scaledCapacity cells per binary-split piece however large the capacity.
func (k *knapsack) scaledBound(v []float64) float64 {
	t := k.t
	scale := k.scale
	c := int(t.c / scale)
	dp := k.dp[:c+1]
	clear(dp)
	for p, ti := range k.splitT {
		val := v[ti] * float64(k.splitK[p])
		if val <= 0 {
			continue
		}
		w := int(t.w[ti]/scale) * k.splitK[p]
		for cc := c; cc >= w; cc-- {
			if nv := dp[cc-w] + val; nv > dp[cc] {
				dp[cc] = nv
			}
		}
	}
	return dp[c]
}
