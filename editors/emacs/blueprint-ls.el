;;; blueprint-ls.el --- Bluelink blueprints in Emacs with eglot and blueprint-ls  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9") (yaml-mode "0.0.15"))
;; Keywords: languages, tools
;; URL: https://github.com/blueprint-ls/blueprint-ls

;;; Commentary:

;; Major modes for Bluelink/Celerity blueprints, each attached to the
;; blueprint-ls language server through eglot:
;;
;;   blueprint-yaml-mode   *.blueprint.yaml, *.blueprint.yml, blueprint.yaml/.yml
;;                         (derived from yaml-mode: package yaml-mode, Debian
;;                         elpa-yaml-mode)
;;   blueprint-json-mode   *.blueprint.json(c), blueprint.json(c)
;;                         (derived from js-json-mode on Emacs 29+, else from
;;                         json-mode when installed, else from js-mode)
;;   blueprint-lang-mode   *.bp, *.blueprint: the blueprint language
;;                         (its own mode: # comments, four-space indentation,
;;                         keywords; Android.bp and Soong-looking .bp files are
;;                         left to other modes)
;;
;; Emacs 28 needs the packages eglot and yaml-mode (Debian: apt-get install
;; elpa-eglot elpa-yaml-mode; else M-x package-install from GNU ELPA and
;; NonGNU ELPA); Emacs 29+ has eglot built in and needs yaml-mode only.
;;
;; Usage: put this file on the load-path and
;;   (require 'blueprint-ls)
;; Blueprint buffers then start the server (blueprint-ls serve, from
;; `blueprint-ls-command') with `eglot-ensure'.  Settings go to the
;; server as its initializationOptions: see `blueprint-ls-settings'.

;;; Code:

(require 'yaml-mode)
(require 'js)
(require 'eglot)

(defgroup blueprint-ls nil
  "Bluelink blueprints with the blueprint-ls language server."
  :group 'languages
  :prefix "blueprint-ls-")

(defcustom blueprint-ls-command '("blueprint-ls" "serve")
  "The command that starts the language server, program first."
  :type '(repeat string))

(defcustom blueprint-ls-settings '(:debounceMs 0)
  "The server's settings (the keys of docs/editors.md), as a plist.
They are sent as the server's initializationOptions, under the section
\"blueprint\", when it starts (\\[eglot-reconnect] after changing them).
To change them without a restart, give `eglot-workspace-configuration'
a \"blueprint\" section too (in .dir-locals.el, say)."
  :type 'plist)

(defcustom blueprint-ls-autostart t
  "Whether blueprint buffers start the server with `eglot-ensure'."
  :type 'boolean)

;;;###autoload
(define-derived-mode blueprint-yaml-mode yaml-mode "Blueprint"
  "Major mode for Bluelink blueprints written in YAML.")

;; The JSON mode's parent: js-json-mode exists from Emacs 29 on.
(cond
 ((fboundp 'js-json-mode)
  (define-derived-mode blueprint-json-mode js-json-mode "Blueprint-JSON"
    "Major mode for Bluelink blueprints written in JSON or JSONC."))
 ((fboundp 'json-mode)
  (define-derived-mode blueprint-json-mode json-mode "Blueprint-JSON"
    "Major mode for Bluelink blueprints written in JSON or JSONC."))
 (t
  (define-derived-mode blueprint-json-mode js-mode "Blueprint-JSON"
    "Major mode for Bluelink blueprints written in JSON or JSONC."
    (setq-local js-indent-level 2))))

(defconst blueprint-lang-keywords
  '("version" "transform" "variable" "value" "data" "resource" "include"
    "export" "metadata" "spec" "foreach" "select" "by" "label" "filter" "as")
  "The statement and block keywords of the blueprint language.")

(defconst blueprint-lang-font-lock
  `((,(concat "^\\s-*\\(variable\\|value\\|data\\|resource\\|include\\|export\\)\\s-+"
              "\\([A-Za-z_][A-Za-z0-9_-]*\\)")
     (1 font-lock-keyword-face) (2 font-lock-variable-name-face))
    (,(concat ":\\s-*\\([A-Za-z_][A-Za-z0-9_-]*\\(?:/[A-Za-z_][A-Za-z0-9_-]*\\)*\\)"
              "\\s-*\\(?:{\\|#\\|$\\)")
     1 font-lock-type-face)
    (,(regexp-opt blueprint-lang-keywords 'symbols) . font-lock-keyword-face)
    (,(regexp-opt '("true" "false" "none" "elem" "i") 'symbols) . font-lock-constant-face)
    ("\\_<\\(variables\\|values\\|resources\\|datasources\\|children\\)\\_>\\s-*[.[]"
     1 font-lock-builtin-face)
    ("\\([A-Za-z_][A-Za-z0-9_-]*\\)\\s-*(" 1 font-lock-function-name-face))
  "Highlighting of the blueprint language; the server's semantic tokens
refine it where the client applies them.")

(defvar blueprint-lang-mode-syntax-table
  (let ((st (make-syntax-table)))
    (modify-syntax-entry ?# "<" st)
    (modify-syntax-entry ?\n ">" st)
    (modify-syntax-entry ?\" "\"" st)
    (modify-syntax-entry ?\\ "\\" st)
    (modify-syntax-entry ?_ "_" st)
    (modify-syntax-entry ?- "_" st)
    (modify-syntax-entry ?/ "." st)
    st)
  "Syntax table of `blueprint-lang-mode'.")

(defcustom blueprint-lang-indent-offset 4
  "Indentation of one block level in the blueprint language."
  :type 'integer)

(defun blueprint-lang-indent-line ()
  "Indent the current line by the depth of the brackets around it."
  (interactive)
  (let* ((depth (save-excursion (car (syntax-ppss (line-beginning-position)))))
         (closer (save-excursion (back-to-indentation) (looking-at-p "[]})]")))
         (col (* blueprint-lang-indent-offset (max 0 (if closer (1- depth) depth)))))
    (if (<= (current-column) (current-indentation))
        (indent-line-to col)
      (save-excursion (indent-line-to col)))))

;;;###autoload
(define-derived-mode blueprint-lang-mode prog-mode "Blueprint-Lang"
  "Major mode for the Bluelink blueprint language (.bp, .blueprint)."
  :syntax-table blueprint-lang-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local indent-line-function #'blueprint-lang-indent-line)
  (setq-local indent-tabs-mode nil)
  (setq-local font-lock-defaults '(blueprint-lang-font-lock)))

(defun blueprint-ls--soong-p ()
  "Whether the buffer is an Android Soong file rather than a blueprint."
  (or (string= (file-name-nondirectory (or buffer-file-name "")) "Android.bp")
      (save-excursion
        (goto-char (point-min))
        (skip-chars-forward " \t\n")
        (or (looking-at-p "//")
            (looking-at-p "[A-Za-z_][A-Za-z0-9_]*\\s-*{")
            (and (looking-at-p "[A-Za-z_][A-Za-z0-9_]*\\s-*=")
                 (not (looking-at-p "version\\_>")))))))

;;;###autoload
(defun blueprint-ls-bp-mode ()
  "Choose the mode of a .bp file: the blueprint language, unless Soong."
  (if (blueprint-ls--soong-p)
      (fundamental-mode)
    (blueprint-lang-mode)))

;;;###autoload
(progn
  (add-to-list 'auto-mode-alist '("\\(?:\\.\\|/\\)blueprint\\.ya?ml\\'" . blueprint-yaml-mode))
  (add-to-list 'auto-mode-alist '("\\(?:\\.\\|/\\)blueprint\\.jsonc?\\'" . blueprint-json-mode))
  (add-to-list 'auto-mode-alist '("\\.blueprint\\'" . blueprint-lang-mode))
  (add-to-list 'auto-mode-alist '("\\.bp\\'" . blueprint-ls-bp-mode)))

(defun blueprint-ls--server-program (_interactive)
  "The server command for eglot, with the settings as initializationOptions."
  (append blueprint-ls-command
          (list :initializationOptions (list :blueprint blueprint-ls-settings))))

(add-to-list 'eglot-server-programs
             '((blueprint-yaml-mode blueprint-json-mode blueprint-lang-mode)
               . blueprint-ls--server-program))

(defun blueprint-ls--setup ()
  "Start the server in a blueprint buffer."
  (when blueprint-ls-autostart
    (eglot-ensure)))

(dolist (hook '(blueprint-yaml-mode-hook blueprint-json-mode-hook blueprint-lang-mode-hook))
  (add-hook hook #'blueprint-ls--setup))

(provide 'blueprint-ls)
;;; blueprint-ls.el ends here
