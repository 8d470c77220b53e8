;;; run.el --- headless test of admission-ls.el with eglot and flymake  -*- lexical-binding: t; -*-

;; Copyright The admission-ls authors
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; ADMISSION_LS=/path/to/admission-ls emacs -Q --batch -l editors/emacs/test/run.el
;; (with HOME pointing at a temporary folder).  Uses Debian's elpa-eglot (and elpa-yaml-mode when
;; installed) through `package-initialize'.  Opens editors/testdata/typo-policy.yaml, which must
;; land in `admission-ls-yaml-mode' and reach the server through eglot, whose diagnostics must show
;; in flymake at their lines; checks the shared detection cases and which testdata files attach.
;; Prints "emacs: N passed, N failed" and exits 1 on a failure.

;;; Code:

(require 'package)
;; Debian's elpa-* packages live here; its site-start adds the folder, which -Q skips.
(when (file-directory-p "/usr/share/emacs/site-lisp/elpa")
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'json)

(defvar admission-ls-test--here (file-name-directory (or load-file-name buffer-file-name)))
(defvar admission-ls-test--testdata (expand-file-name "../../testdata/" admission-ls-test--here))
(add-to-list 'load-path (expand-file-name ".." admission-ls-test--here))
(require 'admission-ls)

(defvar admission-ls-test--passed 0)
(defvar admission-ls-test--failed 0)

(defun admission-ls-test--check (ok what &optional detail)
  "Count and print the check WHAT (OK non-nil: passed), with DETAIL."
  (if ok (cl-incf admission-ls-test--passed) (cl-incf admission-ls-test--failed))
  (princ (format "%s %s%s\n" (if ok "ok  " "FAIL") what (if detail (format "\n     %s" detail) ""))))

(defun admission-ls-test--wait (predicate seconds)
  "Run timers and process output until PREDICATE holds or SECONDS pass; its last value."
  (let ((deadline (+ (float-time) seconds)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    value))

(defun admission-ls-test--open (file)
  "Visit FILE of the test data and run the post-command hook, as after the command that opened it."
  (find-file (expand-file-name file admission-ls-test--testdata))
  ;; eglot-ensure connects from post-command-hook; batch mode runs no commands.
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun admission-ls-test--run ()
  (let ((binary (or (getenv "ADMISSION_LS") "admission-ls")))
    (setq admission-ls-program binary
          admission-ls-settings '(:kubernetesVersion "1.31"))
    (admission-ls-eglot-setup)
    (admission-ls-test--check (executable-find binary) (format "the server binary %s runs" binary))

    ;; The shared detection cases.
    (let* ((cases (alist-get 'cases (json-read-file (expand-file-name "detection.json" admission-ls-test--testdata))))
           (wrong (cl-loop for case across cases
                           unless (eq (and (admission-ls-text-p (alist-get 'text case)) t)
                                      (eq (alist-get 'attach case) t))
                           collect (alist-get 'name case))))
      (admission-ls-test--check (and (>= (length cases) 10) (null wrong))
                                (format "detection cases of detection.json (%d)" (length cases))
                                (and wrong (string-join wrong ", "))))
    (dolist (file '("webhook.yaml" "widget-crd.yaml" "replica-policy.test.yaml"))
      (with-current-buffer (find-file-noselect (expand-file-name file admission-ls-test--testdata))
        (admission-ls-test--check (eq major-mode 'admission-ls-yaml-mode)
                                  (format "%s opens in admission-ls-yaml-mode" file))))
    (with-current-buffer (find-file-noselect (expand-file-name "object.yaml" admission-ls-test--testdata))
      (admission-ls-test--check (not (eq major-mode 'admission-ls-yaml-mode))
                                (format "object.yaml (a Deployment) stays in %s" major-mode)))

    ;; A policy with mistakes: eglot connects, flymake shows the server's diagnostics.
    (with-current-buffer (admission-ls-test--open "typo-policy.yaml")
      (admission-ls-test--check (eq major-mode 'admission-ls-yaml-mode)
                                (format "typo-policy.yaml opens in admission-ls-yaml-mode (parent %s)"
                                        (symbol-function 'admission-ls--parent-mode)))
      (let ((server (admission-ls-test--wait (lambda () (eglot-current-server)) 20)))
        (admission-ls-test--check server "eglot connected admission-ls to the buffer")
        (when server
          (let* ((found (admission-ls-test--wait
                         (lambda ()
                           (cl-find-if (lambda (d) (string-match-p "Unsupported value" (flymake-diagnostic-text d)))
                                       (flymake-diagnostics)))
                         30))
                 (all (mapcar (lambda (d) (format "%d: %s" (line-number-at-pos (flymake-diagnostic-beg d))
                                                  (flymake-diagnostic-text d)))
                              (flymake-diagnostics))))
            (admission-ls-test--check found "flymake shows the not-supported diagnostic" (string-join all " | "))
            (when found
              (admission-ls-test--check (= (line-number-at-pos (flymake-diagnostic-beg found)) 7)
                                        "on line 7 (failurePolicy: Sometimes)")
              (admission-ls-test--check (memq (flymake-diagnostic-type found) (quote (:error eglot-error))) (format "as an error (%s)" (flymake-diagnostic-type found))))
            (admission-ls-test--check
             (cl-find-if (lambda (d) (and (string-match-p "Syntax error" (flymake-diagnostic-text d))
                                          (= (line-number-at-pos (flymake-diagnostic-beg d)) 19)))
                         (flymake-diagnostics))
             "and the cel-syntax diagnostic on line 19"))
          (eglot-shutdown server))))))

(defun admission-ls-test--dir-locals ()
  "A cloned repository's .dir-locals.el cannot choose the program eglot runs."
  (let* ((dir (make-temp-file "admission-ls-dir-locals" t))
         (file (expand-file-name "policy.yaml" dir))
         (global admission-ls-program))
    (with-temp-file (expand-file-name ".dir-locals.el" dir)
      (insert "((nil . ((admission-ls-program . \"./evil\"))))\n"))
    (copy-file (expand-file-name "replica-policy.yaml" admission-ls-test--testdata) file)
    (let ((enable-local-variables t))
      (with-current-buffer (find-file-noselect file)
        (admission-ls-test--check (equal admission-ls-program global)
                                  "a .dir-locals.el does not set admission-ls-program"
                                  admission-ls-program)
        (admission-ls-test--check (equal (car (admission-ls--command)) global)
                                  "and the server command is the user's program")
        (kill-buffer)))
    (delete-directory dir t)))

(condition-case err
    (admission-ls-test--dir-locals)
  (error (admission-ls-test--check nil (format "error: %S" err))))
(condition-case err
    (admission-ls-test--run)
  (error (admission-ls-test--check nil (format "error: %S" err))))
;; The plain closing line CI reads.
(princ (format "emacs: %d passed, %d failed\n" admission-ls-test--passed admission-ls-test--failed))
(kill-emacs (if (and (= admission-ls-test--failed 0) (> admission-ls-test--passed 0)) 0 1))

;;; run.el ends here
