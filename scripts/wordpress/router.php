<?php
// Router for `php -S`: serves existing files as they are and sends everything else (pretty permalinks,
// /wp-json/...) to WordPress's front controller, as the rewrite rules of a real web server would.
$root = $_SERVER['DOCUMENT_ROOT'];
$path = urldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');

if ($path !== '/' && strpos($path, '..') === false) {
    $file = $root . $path;
    if (is_file($file)) {
        return false; // the built-in server serves it (and runs it, if it is PHP)
    }
    if (is_dir($file) && is_file(rtrim($file, '/') . '/index.php')) {
        return false;
    }
}

$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $root . '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
chdir($root);
require $root . '/index.php';
