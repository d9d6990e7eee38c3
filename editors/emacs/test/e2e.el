;;; e2e.el --- end-to-end tests of blueprint-ls.el in a real Emacs  -*- lexical-binding: t; -*-

;; Run through test/run.sh:
;;   emacs --batch -l test/e2e.el
;; Environment: BLUEPRINT_LS (the server binary), BLUEPRINT_TESTDATA (the
;; directory of app.blueprint.yaml, app.blueprint.json and app.bp, each
;; with one mistake: an unknown variable "enviroment"),
;; BLUEPRINT_E2E_TIMEOUT (seconds per wait, default 20).
;;
;; For each format: the file opens in its blueprint mode, eglot starts the
;; server on the first command, the mistake is a Flymake diagnostic on its
;; line, hover on a variable reference describes it, and completion after
;; "variables." offers the variables; accepting one in the middle of a
;; word leaves exactly that word.

;;; Code:

(require 'cl-lib)

(defvar e2e-server (or (getenv "BLUEPRINT_LS") (error "Set BLUEPRINT_LS to the blueprint-ls binary")))
(defvar e2e-testdata (or (getenv "BLUEPRINT_TESTDATA") (error "Set BLUEPRINT_TESTDATA")))
(defvar e2e-timeout (string-to-number (or (getenv "BLUEPRINT_E2E_TIMEOUT") "20")))
(defvar e2e-passed 0)
(defvar e2e-failed 0)

(add-to-list 'load-path (expand-file-name ".." (file-name-directory load-file-name)))
(require 'blueprint-ls)
(setq blueprint-ls-command (list e2e-server "serve"))
;; The mistake's diagnostic turned into a warning: the settings reach the server.
(setq blueprint-ls-settings '(:debounceMs 0 :severity (:ref-unknown-variable "warning")))
(setq eglot-sync-connect t
      eglot-events-buffer-size 0)

(defun e2e-out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defmacro e2e-test (name &rest body)
  "Run BODY as the test NAME, counting and printing its outcome."
  (declare (indent 1))
  `(let ((t0 (float-time)))
     (condition-case err
         (progn ,@body
                (cl-incf e2e-passed)
                (e2e-out "PASS  emacs %s  %s (%.0f ms)" emacs-version ,name (* 1000 (- (float-time) t0))))
       (error
        (cl-incf e2e-failed)
        (e2e-out "FAIL  emacs %s  %s (%.0f ms)\n      %s" emacs-version ,name
                 (* 1000 (- (float-time) t0)) (error-message-string err))))))

(defun e2e-wait (what pred)
  "Wait until PRED holds, letting the server's messages in; fail after the timeout."
  (let ((deadline (+ (float-time) e2e-timeout)))
    (while (not (funcall pred))
      (when (> (float-time) deadline)
        (error "Timed out after %ss waiting for %s" e2e-timeout what))
      (accept-process-output nil 0.05))))

(defun e2e-check (cond fmt &rest args)
  (unless cond (error "%s" (apply #'format fmt args))))

(defun e2e-goto (text &optional offset)
  "Put point OFFSET characters into the first occurrence of TEXT (at its end by default)."
  (goto-char (point-min))
  (e2e-check (search-forward text nil t) "the buffer has no %S" text)
  (goto-char (+ (match-beginning 0) (or offset (length text)))))

(defun e2e-hover ()
  "The markdown of the server's hover at point."
  (let* ((server (eglot--current-server-or-lose))
         (hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))
         (contents (plist-get hover :contents)))
    (cond ((stringp contents) contents)
          ((plist-get contents :value))
          (t (format "%S" contents)))))

(defun e2e-completions ()
  "The candidates `completion-at-point' gets from eglot at point, with the capf's data."
  (let* ((capf (eglot-completion-at-point))
         (table (nth 2 capf)))
    (e2e-check capf "no completion at point")
    (list (all-completions "" table) capf)))

(defun e2e-accept (label)
  "Complete at point with `completion-at-point', which must settle on LABEL.
The word at point is LABEL's only match, so completion inserts it and runs
eglot's exit function, which applies the server's edit."
  (let ((completion-cycle-threshold nil)
        (minibuffer-message-timeout 0)
        (start (point)))
    (completion-at-point)
    (e2e-check (/= (point) start) "completion did not settle on %s" label)))

(defun e2e-line ()
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun e2e-file (name)
  "A copy of the fixture NAME in a fresh directory (edits never touch the repository)."
  (let ((dir (make-temp-file "blueprint-e2e" t)))
    (copy-file (expand-file-name name e2e-testdata) (expand-file-name name dir))
    (expand-file-name name dir)))

(defun e2e-format (name mode ref-line)
  "The tests of one format: the fixture NAME, opened in MODE.
REF-LINE is text on the line holding the mistake."
  (let ((file (e2e-file name)) buf)
    (e2e-test (format "%s opens in %s" name mode)
      (setq buf (find-file-noselect file))
      (with-current-buffer buf
        (e2e-check (eq major-mode mode) "major mode %s" major-mode)))
    (when buf
      (with-current-buffer buf
        (e2e-test (format "%s: eglot starts blueprint-ls on the first command" name)
          (run-hooks 'post-command-hook) ; what eglot-ensure waits for
          (e2e-wait "eglot to manage the buffer" (lambda () (bound-and-true-p eglot--managed-mode)))
          (e2e-check (eglot-current-server) "no server"))
        (e2e-test (format "%s: the mistake is a diagnostic on its line, a warning as set" name)
          (e2e-goto ref-line)
          (let ((line (line-number-at-pos)) found)
            (e2e-wait "diagnostics"
                      (lambda ()
                        (when (fboundp 'flymake-start) (flymake-start))
                        (setq found (cl-find-if (lambda (d) (and (= (line-number-at-pos (flymake-diagnostic-beg d)) line)
                                                                 (string-match-p "enviroment" (flymake-diagnostic-text d))))
                                                (flymake-diagnostics)))))
            (e2e-check (memq (flymake-diagnostic-type found) '(eglot-warning :warning warning))
                       "diagnostic type %S (the severity setting did not reach the server)" (flymake-diagnostic-type found))))
        (e2e-test (format "%s: hover on a variable reference" name)
          (e2e-goto "${variables.environment" 14)
          (let ((md (e2e-hover)))
            (e2e-check (string-match-p "environment" md) "hover %S" md)
            (e2e-check (string-match-p "string" md) "hover %S" md)))
        (e2e-test (format "%s: completion after variables." name)
          (e2e-goto "${variables.environment}-" (length "${variables."))
          (let ((cands (car (e2e-completions))))
            (e2e-check (and (member "environment" cands) (member "region" cands)) "candidates %S" cands)))
        (e2e-test (format "%s: accepting a completion in the middle of a word" name)
          (e2e-goto "${variables.environment}-" (length "${variables.env"))
          (let ((before (e2e-line)))
            (e2e-accept "environment")
            (e2e-check (equal (e2e-line) before) "the line became %S, was %S" (e2e-line) before)))
        (set-buffer-modified-p nil)
        (ignore-errors (eglot-shutdown (eglot-current-server)))
        (kill-buffer buf)))))

(e2e-out "# blueprint-ls Emacs e2e: emacs %s, eglot from %s, server %s" emacs-version
         (file-name-directory (locate-library "eglot")) e2e-server)
(e2e-format "app.blueprint.yaml" 'blueprint-yaml-mode "enviroment")
(e2e-format "app.blueprint.json" 'blueprint-json-mode "enviroment")
(e2e-format "app.bp" 'blueprint-lang-mode "enviroment")
(e2e-out "\n%d passed, %d failed, 0 skipped" e2e-passed e2e-failed)
(kill-emacs (if (zerop e2e-failed) 0 1))
