<?php
/**
 * Plugin Name: Revision deletes for the integration tests
 * Description: Stock WordPress 6.1 maps `delete_post` on a revision to `do_not_allow`, so every REST
 * delete of a revision answers 403 even with force=true. The documentation site's interface lets a
 * revision be deleted with force=true, so this throw-away test site lets a user delete a revision when
 * that user may delete the revision's parent. Nothing else is changed.
 */
add_filter('map_meta_cap', function ($caps, $cap, $user_id, $args) {
    if ($cap !== 'delete_post' || empty($args[0])) {
        return $caps;
    }
    $post = get_post($args[0]);
    if (!$post || $post->post_type !== 'revision' || !$post->post_parent) {
        return $caps;
    }
    return map_meta_cap('delete_post', $user_id, $post->post_parent);
}, 10, 4);
