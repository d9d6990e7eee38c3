package funcs

import (
	"math"

	"github.com/blueprint-ls/blueprint-ls/types"
)

func logicFuncs() []Func {
	cmp := func(name, op, word string, test func(c int) bool) Func {
		return Func{
			Name:      name,
			Signature: sig(tBool, param("a", tNumber), param("b", tNumber)),
			ParamDocs: []string{`"a" in a ` + op + ` b.`, `"b" in a ` + op + ` b.`},
			Summary:   "Reports whether a number is " + word + " another.",
			Doc:       "Compares two numbers (integers and floats mix): `a " + op + " b`." + noneNote,
			Examples: []Example{
				{Expr: name + `(len(datasources.network.subnets), 10)`},
				{Expr: name + `(3, 2.5)`, Result: map[bool]string{true: "true", false: "false"}[test(1)]},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				r, err := compareNumbers(args)
				if err != nil {
					return None, err
				}
				return Bool(test(r)), nil
			},
		}
	}
	return []Func{
		{
			Name:      "and",
			Signature: sig(tBool, param("a", tBool), param("b", tBool)),
			ParamDocs: []string{"The left-hand side.", "The right-hand side."},
			Summary:   "Logical AND of two booleans.",
			Doc: "True when both arguments are true. `none` is falsy and absorbing: if either argument is " +
				"`none` the result is `none`. A `false` argument decides the result even when the other is " +
				"only known after deployment. Every argument must be a boolean (or `none`), even one that " +
				"can not change the result: `and(false, 1)` is an error.",
			Examples: []Example{
				{Expr: `and(resources.orderApi.spec.isProd, eq(variables.environment, "prod"))`},
				{Expr: `and(true, false)`, Result: `false`},
				{Expr: `and(none, true)`, Result: `null`, Note: "none"},
			},
			Impl:  implAnd,
			Flags: HandlesUnknown,
		},
		{
			Name:      "or",
			Signature: sig(tBool, param("a", tBool), param("b", tBool)),
			ParamDocs: []string{"The left-hand side.", "The right-hand side."},
			Summary:   "Logical OR of two booleans.",
			Doc: "True when either argument is true. `none` counts as false: `or(none, true)` is true, " +
				"`or(none, false)` is false, and only `or(none, none)` is `none`. Every argument must be a " +
				"boolean (or `none`), even one that can not change the result: `or(true, 1)` is an error.",
			Examples: []Example{
				{Expr: `or(resources.orderApi.spec.isDev, eq(variables.environment, "dev"))`},
				{Expr: `or(none, true)`, Result: `true`},
			},
			Impl:  implOr,
			Flags: HandlesNone | HandlesUnknown,
		},
		{
			Name:      "not",
			Signature: sig(tBool, param("value", tBool)),
			ParamDocs: []string{"The boolean to negate."},
			Summary:   "Negates a boolean.",
			Doc:       "Returns the opposite boolean." + noneNote,
			Examples: []Example{
				{Expr: `not(eq(variables.environment, "prod"))`},
				{Expr: `not(false)`, Result: `true`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				b, err := argBool(args, 0)
				if err != nil {
					return None, err
				}
				return Bool(!b), nil
			},
		},
		{
			Name:      "eq",
			Signature: generic([]string{"T"}, tBool, param("a", tp("T")), param("b", tp("T"))),
			ParamDocs: []string{"The left-hand side.", "The right-hand side."},
			Summary:   "Reports whether two values are equal.",
			Doc: "Deep equality: arrays item by item, mappings by their entries in any order, numbers by " +
				"value (`1` equals `1.0`). Values of different types are not equal." + noneNote,
			Examples: []Example{
				{Expr: `eq(variables.environment, "prod")`},
				{Expr: `eq(list(1, 2), list(1, 2))`, Result: `true`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				if args[0].HasUnknown() || args[1].HasUnknown() {
					return Unknown("eq(..)"), nil
				}
				return Bool(Equal(args[0], args[1])), nil
			},
		},
		cmp("gt", ">", "greater than", func(c int) bool { return c > 0 }),
		cmp("ge", ">=", "greater than or equal to", func(c int) bool { return c >= 0 }),
		cmp("lt", "<", "less than", func(c int) bool { return c < 0 }),
		cmp("le", "<=", "less than or equal to", func(c int) bool { return c <= 0 }),
		{
			Name:      "if",
			Signature: generic([]string{"T"}, tp("T"), param("condition", tBool), param("then", tp("T")), param("else", tp("T"))),
			ParamDocs: []string{"The condition: a boolean, or none (false).", "The result when the condition is true.", "The result when the condition is false or none."},
			Summary:   "Returns one of two values depending on a boolean condition.",
			Doc: "Returns `then` when the condition is `true` and `else` when it is `false` or `none`. Only " +
				"booleans are conditions: `0`, `\"\"` and `[]` are errors, not falsy. Either branch may be " +
				"`none` to leave a field out. Only the branch taken is evaluated, so an error in the other " +
				"(say `fromjson` of a value that is not JSON in that environment) is not raised; when the " +
				"condition is known only after deployment, both branches are checked.",
			Examples: []Example{
				{Expr: `if(eq(variables.environment, "production"), "us-east-1", "us-west-2")`},
				{Expr: `if(eq(variables.environment, "production"), "large", if(eq(variables.environment, "staging"), "medium", "small"))`},
				{Expr: `if(none, "custom", "default")`, Result: `"default"`},
				{Expr: `if(false, true, none)`, Result: `null`, Note: "none: the field is omitted"},
			},
			Impl:   implIf,
			Choose: chooseIf,
			Flags:  HandlesNone | HandlesUnknown,
			ResultFn: func(args []types.Type, _ []string) types.Type {
				if len(args) < 3 {
					return tAny
				}
				return joinNonNone(args[1:3])
			},
		},
		{
			Name:      "min",
			Signature: sig(tNumber, param("value", tNumber), variadic("more", tNumber)),
			ParamDocs: []string{"A number.", "More numbers."},
			Summary:   "Returns the smallest of its numeric arguments.",
			Doc:       "Returns the smallest argument as it was given (an integer stays an integer)." + noneNote,
			Examples: []Example{
				{Expr: `min(10, 5, 8, 3)`, Result: `3`},
				{Expr: `min(variables.maxInstances, 10)`},
			},
			Impl:     extremum(-1),
			ResultFn: numericResult,
		},
		{
			Name:      "max",
			Signature: sig(tNumber, param("value", tNumber), variadic("more", tNumber)),
			ParamDocs: []string{"A number.", "More numbers."},
			Summary:   "Returns the largest of its numeric arguments.",
			Doc:       "Returns the largest argument as it was given (an integer stays an integer)." + noneNote,
			Examples: []Example{
				{Expr: `max(10, 5, 8, 3)`, Result: `10`},
				{Expr: `max(variables.minInstances, 2)`},
			},
			Impl:     extremum(1),
			ResultFn: numericResult,
		},
		{
			Name:      "abs",
			Signature: sig(tNumber, param("value", tNumber)),
			ParamDocs: []string{"The number."},
			Summary:   "Returns the absolute value of a number.",
			Doc:       "Integers stay integers and floats stay floats." + noneNote,
			Examples: []Example{
				{Expr: `abs(-5)`, Result: `5`},
				{Expr: `abs(3)`, Result: `3`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				v, err := argNum(args, 0)
				if err != nil {
					return None, err
				}
				if n, ok := v.Int(); ok {
					if n == math.MinInt64 {
						return None, argError(0, "the absolute value of %d does not fit in an integer", n)
					}
					if n < 0 {
						n = -n
					}
					return Int(n), nil
				}
				f, _ := v.Float()
				return Float(math.Abs(f)), nil
			},
			ResultFn: numericResult,
		},
		{
			Name: "link",
			Signature: sig(types.NewObject(true),
				param("resourceA", tString), param("resourceB", tString)),
			ParamDocs: []string{"Resource A of the link: a resource reference or a resource name.", "Resource B of the link."},
			Summary:   "Returns what the provider knows about the link between two resources.",
			Doc: "Takes two resources, as references (`resources.orderApi`, or a bare `orderApi`) or as " +
				"names in string literals, and returns an object describing the link between them. The " +
				"object comes from the provider that powers the link, so before deployment it is unknown.",
			Examples: []Example{
				{Expr: `link(resources.orderApi, resources.createOrderFunction)`},
				{Expr: `link(orderApi, listOrdersFunction)`},
				{Expr: `link("orderApi", "deleteOrderFunction")`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				a, b, err := argStrs2(args)
				if err != nil {
					return None, err
				}
				return c.Env.Link(c.Context, a, b)
			},
			Flags: ResourceArgs | EnvDependent,
		},
	}
}

func numericResult(args []types.Type, _ []string) types.Type {
	allInt, allFloat := true, true
	for _, a := range args {
		switch a {
		case types.Integer:
			allFloat = false
		case types.Float:
			allInt = false
		case types.None:
		default:
			allInt, allFloat = false, false
		}
	}
	switch {
	case len(args) > 0 && allInt:
		return types.Integer
	case len(args) > 0 && allFloat:
		return types.Float
	}
	return tNumber
}

// compareNumbers compares args[0] with args[1]: -1, 0 or 1.
func compareNumbers(args []Value) (int, error) {
	a, err := argNum(args, 0)
	if err != nil {
		return 0, err
	}
	b, err := argNum(args, 1)
	if err != nil {
		return 0, err
	}
	return compareNum(a, b), nil
}

func compareNum(a, b Value) int {
	if x, ok := a.Int(); ok {
		if y, ok := b.Int(); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	x, _ := a.Float()
	y, _ := b.Float()
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func extremum(sign int) Impl {
	return func(c *Ctx, args []Value) (Value, error) {
		best, err := argNum(args, 0)
		if err != nil {
			return None, err
		}
		for i := 1; i < len(args); i++ {
			v, err := argNum(args, i)
			if err != nil {
				return None, err
			}
			if compareNum(v, best)*sign > 0 {
				best = v
			}
		}
		return best, nil
	}
}

// checkBools reports the first argument that is neither a boolean nor
// unknown (nor none, which the call boundary or the caller handles).
// and/or check every argument before deciding, so or(true, 985043) is
// an error even though its result would not depend on 985043.
func checkBools(args []Value) error {
	for i, a := range args {
		switch a.kind {
		case KindBoolean, KindUnknown, KindNone:
		default:
			return argError(i, "expected a boolean, got %s", describe(a))
		}
	}
	return nil
}

func implAnd(c *Ctx, args []Value) (Value, error) {
	if err := checkBools(args); err != nil {
		return None, err
	}
	unknown := false
	for _, a := range args {
		switch a.kind {
		case KindUnknown:
			unknown = true
		case KindBoolean:
			if a.num == 0 {
				return Bool(false), nil
			}
		}
	}
	if unknown {
		return Unknown("and(..)"), nil
	}
	return Bool(true), nil
}

func implOr(c *Ctx, args []Value) (Value, error) {
	if err := checkBools(args); err != nil {
		return None, err
	}
	unknown, nones := false, 0
	for _, a := range args {
		switch a.kind {
		case KindUnknown:
			unknown = true
		case KindNone:
			nones++
		case KindBoolean:
			if a.num != 0 {
				return Bool(true), nil
			}
		}
	}
	switch {
	case unknown:
		return Unknown("or(..)"), nil
	case nones == len(args):
		return None, nil
	}
	return Bool(false), nil
}

// chooseIf is the lazy form of if: the branch a known condition takes
// (then: 1, else: 2), or -1 for a condition that is unknown or not a
// boolean (implIf reports it).
func chooseIf(cond Value) int {
	switch cond.kind {
	case KindNone:
		return 2
	case KindBoolean:
		if cond.num != 0 {
			return 1
		}
		return 2
	}
	return -1
}

func implIf(c *Ctx, args []Value) (Value, error) {
	switch cond := args[0]; cond.kind {
	case KindNone:
		return args[2], nil
	case KindUnknown:
		return Unknown("if(..)"), nil
	case KindBoolean:
		if cond.num != 0 {
			return args[1], nil
		}
		return args[2], nil
	default:
		return None, argError(0, "the condition must be a boolean (or none), got %s; compare explicitly with eq, gt, ...", describe(cond))
	}
}
