package funcs

import (
	"fmt"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/types"
)

// checkEvery is how often long loops look at cancellation.
const checkEvery = 1024

func collectionFuncs() []Func {
	item, newItem, accum := tp("Item"), tp("NewItem"), tp("Accum")
	return []Func{
		{
			Name:      "list",
			Signature: generic([]string{"T"}, arrayOf(tp("T")), variadic("items", tp("T"))),
			ParamDocs: []string{"The items, all of the same type."},
			Summary:   "Creates an array from its arguments.",
			Doc: "Returns the arguments as an array, in order. The items must have the same type (integers " +
				"and floats mix). Arguments that are `none` are left out, as `none` items are in any array. " +
				"An array literal `[a, b]` evaluates the same way.",
			Examples: []Example{
				{Expr: `list("item1", "item2", "item3", "item4")`, Result: `["item1","item2","item3","item4"]`},
				{Expr: `list("a", none, "b")`, Result: `["a","b"]`},
			},
			Impl:     implList,
			Flags:    HandlesNone | HandlesUnknown,
			ResultFn: func(args []types.Type, _ []string) types.Type { return arrayOf(joinNonNone(args)) },
		},
		{
			Name:      "object",
			Signature: sig(types.NewObject(true), variadic("fields", tAny)),
			ParamDocs: []string{"Named arguments (`name = value`), one per attribute."},
			Summary:   "Creates an object from named arguments.",
			Doc: "Each named argument `name = value` becomes an attribute, in order. With no arguments the " +
				"result is an empty object. Attributes whose value is `none` are left out. Every argument " +
				"must be named and names must be unique. `object` is the only function that reads argument names.",
			Examples: []Example{
				{Expr: `object(id = "subnet-1234", label = "Subnet 1234")`, Result: `{"id":"subnet-1234","label":"Subnet 1234"}`},
				{Expr: `object()`, Result: `{}`},
			},
			Impl:  implObject,
			Flags: HandlesNone | HandlesUnknown | NamedArgs,
			ResultFn: func(args []types.Type, names []string) types.Type {
				var fs []types.Field
				for i, t := range args {
					if i < len(names) && names[i] != "" && t != types.None {
						fs = append(fs, types.Field{Name: names[i], Type: t})
					}
				}
				return types.NewObject(false, fs...)
			},
		},
		{
			Name:      "keys",
			Signature: sig(arrayOf(tString), param("mapping", tMapping)),
			ParamDocs: []string{"The mapping or object whose keys to list."},
			Summary:   "Returns the keys of a mapping or the attribute names of an object.",
			Doc:       "Keys come in the mapping's order (the order they were written or decoded in)." + noneNote,
			Examples: []Example{
				{Expr: `keys(datasources.network.subnets)`},
				{Expr: `keys(object(a = 1, b = 2))`, Result: `["a","b"]`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				m, err := argMap(args, 0)
				if err != nil {
					return None, err
				}
				out := make([]Value, m.Len())
				for i, k := range m.Keys() {
					out[i] = String(k)
				}
				return Array(out), nil
			},
		},
		{
			Name:      "vals",
			Signature: generic([]string{"V"}, arrayOf(tp("V")), param("mapping", mapOf(tp("V")))),
			ParamDocs: []string{"The mapping or object whose values to list."},
			Summary:   "Returns the values of a mapping or object.",
			Doc:       "Values come in the mapping's key order. Named `vals` so as not to clash with the `values` keyword." + noneNote,
			Examples: []Example{
				{Expr: `vals(datasources.network.subnets)`},
				{Expr: `vals(object(a = 1, b = 2))`, Result: `[1,2]`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				m, err := argMap(args, 0)
				if err != nil {
					return None, err
				}
				return Array(slices.Clone(m.Values())), nil
			},
		},
		{
			Name: "map",
			Signature: generic([]string{"Item", "NewItem"}, arrayOf(newItem),
				param("items", arrayOf(item)), param("f", fnOptIndex(newItem, item))),
			ParamDocs: []string{"The items to transform.", "The function applied to each item (and, if it takes one, the item's index)."},
			Summary:   "Transforms every item of an array with a function.",
			Doc: "Calls the function with each item (and its index from 0, when the function takes a second " +
				"argument) and collects the results in order. Results that are `none` are left out. If the " +
				"array is `none` the result is `none`. A function that cannot take an item is an error.",
			Examples: []Example{
				{Expr: `map(datasources.network.subnets, compose(to_upper, getattr("id")))`},
				{Expr: `map(list("http://a", "http://b"), trimprefix_g("http://"))`, Result: `["a","b"]`},
			},
			Impl:  implMap,
			Flags: HigherOrder,
		},
		{
			Name: "filter",
			Signature: generic([]string{"Item"}, arrayOf(item),
				param("items", arrayOf(item)), param("predicate", fn(tBool, item))),
			ParamDocs: []string{"The items to filter.", "The function deciding which items to keep; it must return a boolean."},
			Summary:   "Keeps the items of an array for which a predicate is true.",
			Doc: "Calls the predicate with each item and keeps the items for which it returns `true`, in " +
				"order. A `none` result counts as false; any other non-boolean result is an error." + noneNote,
			Examples: []Example{
				{Expr: `filter(datasources.network.subnets, has_prefix_g("subnet-402948-"))`},
				{Expr: `filter(list("http://a", "ftp://b"), has_prefix_g("http://"))`, Result: `["http://a"]`},
			},
			Impl:  implFilter,
			Flags: HigherOrder,
		},
		{
			Name: "reduce",
			Signature: generic([]string{"Item", "Accum"}, accum,
				param("items", arrayOf(item)), param("reducer", fnOptIndex(accum, accum, item)), param("initial", accum)),
			ParamDocs: []string{
				"The items to reduce.",
				"The function combining the accumulated value with each item (and its index, if it takes one).",
				"The starting value.",
			},
			Summary: "Folds an array into a single value with a reducer function.",
			Doc: "Starts from `initial` and calls the reducer with the accumulated value and each item (and the " +
				"item's index when it takes a third argument), in order; the last result is returned. No core " +
				"function is a reducer: reducers come from providers. If the array is `none` the result is " +
				"`none`; `initial` may be `none`.",
			Examples: []Example{
				{Expr: `reduce(datasources.instances.items, sum_memory_reducer, 0)`, Note: "sum_memory_reducer is a provider function"},
				{Expr: `reduce(datasources.instances.items, build_id_to_name_map, object())`},
			},
			Impl:  implReduce,
			Flags: HigherOrder | HandlesNone,
		},
		{
			Name: "sort",
			Signature: generic([]string{"Item"}, arrayOf(item),
				param("items", arrayOf(item)), param("compare", fn(tInt, item, item))),
			ParamDocs: []string{"The items to sort.", "The comparison: negative when a comes first, positive when b does, 0 when equal."},
			Summary:   "Sorts an array with a comparison function.",
			Doc: "Returns a new array ordered by the comparison function, which returns a negative integer " +
				"when its first argument comes first, a positive one when the second does and 0 when they " +
				"are equal. The sort is stable. No core function is a comparator: comparators come from " +
				"providers." + noneNote,
			Examples: []Example{
				{Expr: `sort(datasources.instances.items, compare_instance_size)`, Note: "compare_instance_size is a provider function"},
				{Expr: `sort(datasources.region.availabilityZones, compare_strings_alphabetically)`},
			},
			Impl:  implSort,
			Flags: HigherOrder,
		},
		{
			Name: "flatmap",
			Signature: generic([]string{"Item", "NewItem"}, arrayOf(newItem),
				param("items", arrayOf(item)), param("f", fnOptIndex(arrayOf(newItem), item))),
			ParamDocs: []string{"The items to transform.", "The function applied to each item; it must return an array."},
			Summary:   "Transforms every item into an array and concatenates the results.",
			Doc: "Like `map`, but the function returns an array for each item and the arrays are joined into " +
				"one flat array. A `none` result is skipped; any other non-array result is an error." + noneNote,
			Examples: []Example{
				{Expr: `flatmap(values.cacheClusterConfig.hosts, split_g(","))`},
				{Expr: `flatmap(list("host1,example.com:3049", "host2,example.com:4095"), split_g(","))`,
					Result: `["host1","example.com:3049","host2","example.com:4095"]`},
			},
			Impl:  implFlatmap,
			Flags: HigherOrder,
		},
		{
			Name:      "compose",
			Signature: sig(fn(tAny, tAny), param("f", fn(tAny, tAny)), variadic("more", fn(tAny, tAny))),
			ParamDocs: []string{"The left-most function, applied last.", "More functions; the right-most is applied first."},
			Summary:   "Combines functions right to left: compose(f, g)(x) is f(g(x)).",
			Doc: "Returns a function of one argument that passes it to the right-most function, that result " +
				"to the function on its left, and so on. Each function must take one argument. The result " +
				"can only be passed to a higher-order function such as `map`.",
			Examples: []Example{
				{Expr: `map(datasources.network.subnets, compose(to_upper, getattr("id")))`},
				{Expr: `map(list(object(id = "a")), compose(to_upper, getattr("id")))`, Result: `["A"]`},
			},
			Impl:     composeImpl("compose", true),
			Flags:    ReturnsFunc | HigherOrder,
			ResultFn: func(args []types.Type, _ []string) types.Type { return chainType(args, true) },
		},
		{
			Name:      "pipe",
			Signature: sig(fn(tAny, tAny), param("f", fn(tAny, tAny)), variadic("more", fn(tAny, tAny))),
			ParamDocs: []string{"The left-most function, applied first.", "More functions, applied in order."},
			Summary:   "Combines functions left to right: pipe(f, g)(x) is g(f(x)).",
			Doc: "Returns a function of one argument that passes it to the left-most function, that result to " +
				"the next function, and so on. Each function must take one argument.",
			Examples: []Example{
				{Expr: `map(datasources.network.subnets, pipe(getattr("id"), to_upper))`},
				{Expr: `map(list(object(id = "a")), pipe(getattr("id"), to_upper))`, Result: `["A"]`},
			},
			Impl:     composeImpl("pipe", false),
			Flags:    ReturnsFunc | HigherOrder,
			ResultFn: func(args []types.Type, _ []string) types.Type { return chainType(args, false) },
		},
		{
			Name:      "getattr",
			Signature: sig(fn(tAny, tMapping), param("name", tString)),
			ParamDocs: []string{"The attribute to extract."},
			Summary:   "Returns a function that reads a named attribute of an object or mapping.",
			Doc: "The returned function takes an object or mapping and returns its attribute `name`; a " +
				"missing attribute is an error (use `lookup` to get `none` instead). Use it with `map`: " +
				"`getattr(\"id\")(x)` cannot be written directly.",
			Examples: []Example{
				{Expr: `map(datasources.network.subnets, compose(getattr("id"), getattr("definition")))`},
				{Expr: `map(list(object(definition = object(id = "subnet-1234"))), compose(getattr("id"), getattr("definition")))`,
					Result: `["subnet-1234"]`},
			},
			Impl:  implGetattr,
			Flags: ReturnsFunc,
		},
		{
			Name:      "getelem",
			Signature: sig(fn(tAny, tArray), param("index", tInt)),
			ParamDocs: []string{"The position (from 0) of the element to extract."},
			Summary:   "Returns a function that reads an element of an array by position.",
			Doc:       "The returned function takes an array and returns the element at `index` (from 0); an index out of range is an error.",
			Examples: []Example{
				{Expr: `map(datasources.network.subnets, compose(getattr("id"), getelem(0)))`},
				{Expr: `map(list(list(object(id = "subnet-1234"), "10.0.0.0/16")), compose(getattr("id"), getelem(0)))`,
					Result: `["subnet-1234"]`},
			},
			Impl:  implGetelem,
			Flags: ReturnsFunc,
		},
		{
			Name:      "lookup",
			Signature: generic([]string{"V"}, tp("V"), param("mapping", mapOf(tp("V"))), param("key", tString)),
			ParamDocs: []string{"The mapping or object to look in.", "The key to look up."},
			Summary:   "Returns the value for a key of a mapping, or none when the key is missing.",
			Doc: "Returns `none` when the key does not exist or the mapping itself is `none`, so it pairs " +
				"with `coalesce` and `first` for defaults. Use `.` or `[..]` when a missing key should be an error.",
			Examples: []Example{
				{Expr: `coalesce(lookup(config, "timeout"), 30)`},
				{Expr: `coalesce(lookup(object(production = "large", staging = "medium", development = "small"), variables.environment), "small")`},
				{Expr: `lookup(object(a = 1), "b")`, Result: `null`, Note: "none"},
			},
			Impl:  implLookup,
			Flags: HandlesNone,
		},
		{
			Name:      "first",
			Signature: sig(tAny, param("value", tAny), variadic("more", tAny)),
			ParamDocs: []string{"The first candidate.", "Further candidates, in order of preference."},
			Summary:   "Returns the first argument that is not empty (none, \"\" or []).",
			Doc: "Skips `none`, the empty string and the empty array, and returns the first other argument " +
				"(empty mappings, 0 and false are not skipped). When every argument is empty the last one " +
				"is returned.",
			Examples: []Example{
				{Expr: `first(variables.customHost, variables.defaultHost, "localhost")`},
				{Expr: `first(none, "", [], "value")`, Result: `"value"`},
				{Expr: `first(none, none, none)`, Result: `null`, Note: "none"},
			},
			Impl:     implFirst,
			Flags:    HandlesNone | HandlesUnknown,
			ResultFn: func(args []types.Type, _ []string) types.Type { return joinNonNone(args) },
		},
		{
			Name:      "coalesce",
			Signature: sig(tAny, param("value", tAny), variadic("more", tAny)),
			ParamDocs: []string{"The first candidate.", "Further candidates, in order of preference."},
			Summary:   "Returns the first argument that is not none.",
			Doc: "Unlike `first`, only `none` is skipped: an empty string or array is returned. When every " +
				"argument is `none` the result is `none`.",
			Examples: []Example{
				{Expr: `coalesce(lookup(config, "timeout"), 30)`},
				{Expr: `coalesce(variables.customEndpoint, "https://api.default.com")`},
				{Expr: `coalesce(none, "", "fallback")`, Result: `""`},
			},
			Impl:     implCoalesce,
			Flags:    HandlesNone | HandlesUnknown,
			ResultFn: func(args []types.Type, _ []string) types.Type { return joinNonNone(args) },
		},
	}
}

func joinNonNone(ts []types.Type) types.Type {
	var keep []types.Type
	for _, t := range ts {
		if t != types.None {
			keep = append(keep, t)
		}
	}
	if len(keep) == 0 {
		if len(ts) > 0 {
			return types.None
		}
		return types.Any
	}
	return types.Join(keep...)
}

// chainType is the static type of compose (rightToLeft) or pipe.
func chainType(args []types.Type, rightToLeft bool) types.Type {
	if len(args) == 0 {
		return fn(tAny, tAny)
	}
	in, out := args[0], args[len(args)-1]
	if rightToLeft {
		in, out = out, in
	}
	res := fn(tAny, tAny)
	if f, ok := in.(*types.Func); ok && len(f.Params) > 0 {
		res.Params[0].Type = f.Params[0].Type
	}
	if f, ok := out.(*types.Func); ok {
		res.Result = f.Result
	}
	return res
}

func implList(c *Ctx, args []Value) (Value, error) {
	out := make([]Value, 0, len(args))
	var kind Kind
	first := -1
	for i, a := range args {
		switch a.kind {
		case KindNone:
			continue
		case KindUnknown:
		default:
			k := a.kind
			if k == KindFloat {
				k = KindInteger
			}
			if first < 0 {
				kind, first = k, i
			} else if k != kind {
				return None, argError(i, "list items must have the same type: this one is %s, argument %d is %s", describe(a), first+1, describe(args[first]))
			}
		}
		out = append(out, a)
	}
	return Array(out), nil
}

func implObject(c *Ctx, args []Value) (Value, error) {
	m := NewMap(len(args))
	seen := make(map[string]int, len(args))
	for i, a := range args {
		name := ""
		if i < len(c.Names) {
			name = c.Names[i]
		}
		if name == "" {
			return None, argError(i, "object takes named arguments only: write name = value")
		}
		if j, dup := seen[name]; dup {
			return None, argError(i, "attribute %q is already given by argument %d", name, j+1)
		}
		seen[name] = i
		if a.kind == KindNone {
			continue
		}
		m.Set(name, a)
	}
	return MapValue(m), nil
}

// itemError wraps the error of a function value applied to item i.
func itemError(argIdx int, f *Function, i int, err error) error {
	return &RuntimeError{Arg: argIdx + 1, Msg: fmt.Sprintf("applying %s to item %d", f.Name, i), Err: err}
}

func cancelled(c *Ctx, i int) error {
	if i%checkEvery == 0 {
		return c.Context.Err()
	}
	return nil
}

// arrayAndFunc reads the items (argument 0) and the function applied to
// them (argument 1), checking that the function takes n arguments; withIndex
// reports that it takes the item's index as one more.
func arrayAndFunc(args []Value, n int, shape string) (items []Value, f *Function, withIndex bool, err error) {
	if items, err = argArray(args, 0); err != nil {
		return nil, nil, false, err
	}
	if f, err = argFunc(args, 1); err != nil {
		return nil, nil, false, err
	}
	if withIndex, err = acceptsArgs(f, 1, n, shape); err != nil {
		return nil, nil, false, err
	}
	return items, f, withIndex, nil
}

// applyEach calls the function value args[1] (f) on every item in order,
// with the item's index as a further argument when withIndex, and hands each
// result to use, which stops the loop by returning more false or an error.
// With acc non-nil (reduce) *acc goes before the item and each result
// replaces it; use is then not called.
func applyEach(c *Ctx, args []Value, f *Function, items []Value, withIndex bool, acc *Value, use func(i int, it, r Value) (more bool, err error)) error {
	var buf [3]Value
	for i, it := range items {
		if err := cancelled(c, i); err != nil {
			return err
		}
		n := 0
		if acc != nil {
			buf[n] = *acc
			n++
		}
		buf[n] = it
		n++
		if withIndex {
			buf[n] = Int(int64(i))
			n++
		}
		r, err := c.CallFunc(args[1], buf[:n]...)
		if err != nil {
			return itemError(1, f, i, err)
		}
		if acc != nil {
			*acc = r
			continue
		}
		if more, err := use(i, it, r); !more || err != nil {
			return err
		}
	}
	return nil
}

func implMap(c *Ctx, args []Value) (Value, error) {
	items, f, withIndex, err := arrayAndFunc(args, 1, "func(Item, integer?) -> NewItem")
	if err != nil {
		return None, err
	}
	out := make([]Value, 0, len(items))
	err = applyEach(c, args, f, items, withIndex, nil, func(_ int, _, r Value) (bool, error) {
		if r.kind != KindNone {
			out = append(out, r)
		}
		return true, nil
	})
	if err != nil {
		return None, err
	}
	return Array(out), nil
}

func implFlatmap(c *Ctx, args []Value) (Value, error) {
	items, f, withIndex, err := arrayAndFunc(args, 1, "func(Item, integer?) -> array")
	if err != nil {
		return None, err
	}
	out := make([]Value, 0, len(items))
	unknown := false
	err = applyEach(c, args, f, items, withIndex, nil, func(i int, _, r Value) (bool, error) {
		switch r.kind {
		case KindNone:
		case KindUnknown:
			unknown = true
			return false, nil
		case KindArray:
			es, _ := r.Elems()
			if len(out)+len(es) > MaxArrayLen {
				return false, errTooBig("the item budget")
			}
			for _, e := range es {
				if e.kind != KindNone {
					out = append(out, e)
				}
			}
		default:
			return false, argError(1, "%s returned %s for item %d; flatmap needs an array", f.Name, describe(r), i)
		}
		return true, nil
	})
	if err != nil {
		return None, err
	}
	if unknown {
		return Unknown("flatmap(..)"), nil
	}
	return Array(out), nil
}

func implFilter(c *Ctx, args []Value) (Value, error) {
	items, f, _, err := arrayAndFunc(args, 1, "func(Item) -> boolean")
	if err != nil {
		return None, err
	}
	out := make([]Value, 0, len(items))
	unknown := false
	// The predicate gets the item only, even when it could take an index.
	err = applyEach(c, args, f, items, false, nil, func(i int, it, r Value) (bool, error) {
		switch r.kind {
		case KindBoolean:
			if r.num != 0 {
				out = append(out, it)
			}
		case KindNone:
		case KindUnknown:
			unknown = true
		default:
			return false, argError(1, "%s returned %s for item %d; a filter predicate must return a boolean", f.Name, describe(r), i)
		}
		return true, nil
	})
	if err != nil {
		return None, err
	}
	if unknown {
		return Unknown("filter(..)"), nil
	}
	return Array(out), nil
}

func implReduce(c *Ctx, args []Value) (Value, error) {
	if args[0].kind == KindNone {
		return None, nil
	}
	if args[0].kind == KindUnknown || args[1].kind == KindUnknown {
		return Unknown("reduce(..)"), nil
	}
	items, f, withIndex, err := arrayAndFunc(args, 2, "func(Accum, Item, integer?) -> Accum")
	if err != nil {
		return None, err
	}
	acc := args[2]
	if err := applyEach(c, args, f, items, withIndex, &acc, nil); err != nil {
		return None, err
	}
	return acc, nil
}

func implSort(c *Ctx, args []Value) (Value, error) {
	items, f, _, err := arrayAndFunc(args, 2, "func(Item, Item) -> integer")
	if err != nil {
		return None, err
	}
	// Sort a permutation with ties broken by position: stable, and
	// O(n log n) comparator calls (pattern-defeating quicksort).
	perm := make([]int32, len(items))
	for i := range perm {
		perm[i] = int32(i)
	}
	var firstErr error
	unknown := false
	calls := 0
	var buf [2]Value
	slices.SortFunc(perm, func(x, y int32) int {
		if firstErr != nil || unknown {
			return int(x - y)
		}
		if err := cancelled(c, calls); err != nil {
			firstErr = err
			return int(x - y)
		}
		calls++
		buf[0], buf[1] = items[x], items[y]
		r, err := c.CallFunc(args[1], buf[:]...)
		if err != nil {
			firstErr = &RuntimeError{Arg: 2, Msg: "comparing items with " + f.Name, Err: err}
			return int(x - y)
		}
		sign := 0
		switch r.kind {
		case KindInteger:
			switch n := int64(r.num); {
			case n < 0:
				sign = -1
			case n > 0:
				sign = 1
			}
		case KindFloat:
			switch v, _ := r.Float(); {
			case v < 0:
				sign = -1
			case v > 0:
				sign = 1
			}
		case KindUnknown:
			unknown = true
		default:
			firstErr = argError(1, "%s returned %s; a comparison must return an integer", f.Name, describe(r))
		}
		if sign == 0 {
			return int(x - y)
		}
		return sign
	})
	if firstErr != nil {
		return None, firstErr
	}
	if unknown {
		return Unknown("sort(..)"), nil
	}
	out := make([]Value, len(perm))
	for i, p := range perm {
		out[i] = items[p]
	}
	return Array(out), nil
}

func composeImpl(name string, rightToLeft bool) Impl {
	return func(c *Ctx, args []Value) (Value, error) {
		if len(args) == 0 {
			return None, errorf("expected at least one function")
		}
		fns := make([]Value, len(args))
		for i := range args {
			f, err := argFunc(args, i)
			if err != nil {
				return None, err
			}
			if f.Type.MinArgs() > 1 || f.Type.MaxArgs() == 0 {
				return None, argError(i, "%s takes %s; composed functions must take one", f.Name, takes(f.Type))
			}
			fns[i] = args[i]
		}
		if rightToLeft {
			slices.Reverse(fns)
		}
		var t *types.Func
		if tt, ok := chainType(typesOf(args), rightToLeft).(*types.Func); ok {
			t = tt
		}
		return FuncValue(&Function{
			Name: callName(name, args),
			Type: t,
			call: func(c *Ctx, a []Value) (Value, error) {
				v := a[0]
				for _, f := range fns {
					var err error
					if v, err = c.CallFunc(f, v); err != nil {
						return None, err
					}
				}
				return v, nil
			},
		}), nil
	}
}

func typesOf(vs []Value) []types.Type {
	out := make([]types.Type, len(vs))
	for i, v := range vs {
		out[i] = TypeOf(v)
	}
	return out
}

func implGetattr(c *Ctx, args []Value) (Value, error) {
	name, err := argStr(args, 0)
	if err != nil {
		return None, err
	}
	fname := callName("getattr", args)
	return FuncValue(&Function{
		Name: fname, Type: fn(tAny, tMapping), propagate: true,
		call: func(c *Ctx, a []Value) (Value, error) {
			m, ok := a[0].Map()
			if !ok {
				return None, &RuntimeError{Func: fname, Msg: fmt.Sprintf("expected an object or mapping, got %s", describe(a[0]))}
			}
			v, ok := m.Get(name)
			if !ok {
				return None, &RuntimeError{Func: fname, Msg: fmt.Sprintf("no attribute %q%s", name, available(m))}
			}
			return v, nil
		},
	}), nil
}

func available(m *Map) string {
	if m.Len() == 0 {
		return " (the object is empty)"
	}
	ks := m.Keys()
	if len(ks) > 8 {
		return fmt.Sprintf(" (it has %q, ... %d more)", ks[:8], len(ks)-8)
	}
	return fmt.Sprintf(" (it has %q)", ks)
}

func implGetelem(c *Ctx, args []Value) (Value, error) {
	idx, err := argInt(args, 0)
	if err != nil {
		return None, err
	}
	if idx < 0 {
		return None, argError(0, "index %d is negative", idx)
	}
	fname := callName("getelem", args)
	return FuncValue(&Function{
		Name: fname, Type: fn(tAny, tArray), propagate: true,
		call: func(c *Ctx, a []Value) (Value, error) {
			es, ok := a[0].Elems()
			if !ok {
				return None, &RuntimeError{Func: fname, Msg: fmt.Sprintf("expected an array, got %s", describe(a[0]))}
			}
			if idx >= int64(len(es)) {
				return None, &RuntimeError{Func: fname, Msg: fmt.Sprintf("index %d is out of range (the array has %d items)", idx, len(es))}
			}
			return es[idx], nil
		},
	}), nil
}

func implLookup(c *Ctx, args []Value) (Value, error) {
	if args[0].kind == KindNone || args[1].kind == KindNone {
		return None, nil
	}
	if args[0].kind == KindUnknown || args[1].kind == KindUnknown {
		return Unknown("lookup(..)"), nil
	}
	m, err := argMap(args, 0)
	if err != nil {
		return None, err
	}
	k, err := argStr(args, 1)
	if err != nil {
		return None, err
	}
	v, _ := m.Get(k)
	return v, nil
}

func implFirst(c *Ctx, args []Value) (Value, error) {
	for _, a := range args {
		if a.kind == KindUnknown {
			return a, nil
		}
		if !a.isEmpty() {
			return a, nil
		}
	}
	return args[len(args)-1], nil
}

func implCoalesce(c *Ctx, args []Value) (Value, error) {
	for _, a := range args {
		if a.kind != KindNone {
			return a, nil
		}
	}
	return None, nil
}
