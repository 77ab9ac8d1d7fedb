<?php
// Installs WordPress into the database named by the wp-config.php of the tree given as the first
// argument (there is no wp-cli in Debian's archive), activates the theme THEME when given (each WordPress
// release installs its own default theme otherwise), then prints the administrator's login and a new
// application password as JSON. Usage: php install-site.php WEB_ROOT BASE_URL [THEME]
if (PHP_SAPI !== 'cli' || $argc < 3) {
    fwrite(STDERR, "usage: php install-site.php WEB_ROOT BASE_URL [THEME]\n");
    exit(2);
}
[$_, $root, $base] = $argv;
$themeSlug = $argv[3] ?? '';
$url = parse_url($base);
$_SERVER['HTTP_HOST'] = $url['host'] . (isset($url['port']) ? ':' . $url['port'] : '');
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
$_SERVER['REQUEST_METHOD'] = 'GET';

define('WP_INSTALLING', true);
require $root . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

// The machine has no mail transport: wp_install() would try to mail the new administrator.
add_filter('pre_wp_mail', '__return_false');

$username = 'admin';
$password = wp_generate_password(24, false);
$result = wp_install('Docs site (integration tests)', $username, 'admin@example.org', false, '', $password);
if (!is_array($result) || empty($result['user_id'])) {
    fwrite(STDERR, "wp_install() failed\n");
    exit(1);
}
$userId = (int) $result['user_id'];

if ($themeSlug !== '' && get_stylesheet() !== $themeSlug) {
    $theme = wp_get_theme($themeSlug);
    if (!$theme->exists()) {
        fwrite(STDERR, "theme $themeSlug is not in this WordPress tree\n");
        exit(1);
    }
    switch_theme($themeSlug);
}

// Pretty permalinks, as on a production site (the REST API is then under /wp-json/).
update_option('permalink_structure', '/%postname%/');
flush_rewrite_rules(false);

if (!wp_is_application_passwords_available()) {
    fwrite(STDERR, "application passwords are not available (WP_ENVIRONMENT_TYPE must be 'local' over http)\n");
    exit(1);
}
$created = WP_Application_Passwords::create_new_application_password($userId, ['name' => 'integration-tests']);
if (is_wp_error($created)) {
    fwrite(STDERR, 'application password: ' . $created->get_error_message() . "\n");
    exit(1);
}

echo json_encode([
    'username' => $username,
    'applicationPassword' => $created[0],
    'userId' => $userId,
    'version' => get_bloginfo('version'),
    'theme' => get_stylesheet(),
    'blockTheme' => function_exists('wp_is_block_theme') ? wp_is_block_theme() : false,
]), "\n";
