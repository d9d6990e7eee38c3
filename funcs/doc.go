// Package funcs owns the core functions of the substitution language: one
// table (Core, or NewTable plus provider functions via Register) holding
// every function's signature, parameter docs, summary, markdown doc,
// examples, flags and pure implementation. Type checking, signature help,
// hover, completion, docs/functions.md and evaluation all read this table;
// nothing re-lists the functions.
//
// It also owns the runtime value model (Value: string, integer, float,
// boolean, binary, array, ordered mapping, function, none, unknown; with a
// sensitive flag), its conversions (JSON, TypeOf,
// Interpolate, Equal), JSON pointers for fromjson, and the Env interface
// through which the environment-dependent functions (file, http_resource,
// cwd, uuid, datetime, link) reach the outside world.
//
// Invariants:
//   - Values are immutable; containers never change once wrapped.
//   - Calls go through Ctx.Invoke (or Ctx.CallFunc for function values),
//     which checks arity, checks the kinds of the other arguments when a
//     none or unknown one may decide the result without them (so the
//     evaluator rejects what the checker's types reject), applies the none
//     and unknown rules, marks results
//     sensitive when an argument is, and turns panics into *RuntimeError:
//     an implementation never takes the process down.
//   - A *RuntimeError of a call with a sensitive argument is tainted: its
//     message masks every quoted text and every text of those arguments
//     (secret.go), and a sensitive Value formats as (sensitive) with any
//     fmt verb, so no message can print a secret.
//   - No value is larger than MaxStringSize or MaxArrayLen, and one
//     evaluation (one Ctx) builds at most MaxEvalBytes of text; functions
//     whose result can outgrow their arguments check before building it
//     (budget.go, docs/security.md).
//   - A user's mistake at run time is a *RuntimeError naming the function
//     and, when it can, the 1-based argument at fault.
//   - Implementations do not keep their args slice, do no I/O except
//     through Env, and loop in linear or n·log n time.
package funcs
